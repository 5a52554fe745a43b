import { bigint, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/** One row per scheduled job: the worker holding an unexpired lease runs it; others skip. */
export const jobLeases = pgTable('job_leases', {
  name: text().primaryKey(),
  owner: text().notNull(),
  expiresAt: tstz().notNull(),
  lastRunAt: tstz(),
  lastError: text(),
  /**
   * Run counters across every worker (and Trigger.dev task) since the row was made, updated by the
   * statement that records the run: /metrics reads them, so any app instance shows the whole fleet's jobs.
   */
  runs: bigint({ mode: 'number' }).notNull().default(0),
  failures: bigint({ mode: 'number' }).notNull().default(0),
  /** Sum of run durations, ms (with runs: the mean). */
  durationMsTotal: bigint({ mode: 'number' }).notNull().default(0),
  lastDurationMs: integer(),
});
