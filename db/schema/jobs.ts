import { pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/** One row per scheduled job: the worker holding an unexpired lease runs it; others skip. */
export const jobLeases = pgTable('job_leases', {
  name: text().primaryKey(),
  owner: text().notNull(),
  expiresAt: tstz().notNull(),
  lastRunAt: tstz(),
  lastError: text(),
});
