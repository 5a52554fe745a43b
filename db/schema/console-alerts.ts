import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns';

/**
 * A condition the support console shows until it clears: one open row per kind and subject, updated while
 * it lasts (lastSeenAt, data), resolved when it clears.
 */
export const consoleAlerts = pgTable(
  'console_alerts',
  {
    id: text().primaryKey(),
    /** solvency_shortfall, gas_below_floor. */
    kind: text().notNull(),
    /** `<mode>:<chain>:<asset>`. */
    subject: text().notNull(),
    /** The latest figures (difference, held, owed, block, run id). */
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    openedAt: createdAt(),
    lastSeenAt: tstz().notNull().defaultNow(),
    resolvedAt: tstz(),
  },
  (t) => [
    /** At most one open alert per condition. */
    uniqueIndex('console_alerts_open_uq')
      .on(t.kind, t.subject)
      .where(sql`${t.resolvedAt} is null`),
    index('console_alerts_opened_idx').on(t.openedAt.desc()),
  ],
);

export type ConsoleAlert = typeof consoleAlerts.$inferSelect;
