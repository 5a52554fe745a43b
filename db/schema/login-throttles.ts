import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/**
 * Failed sign-in counters that slow brute force: one row per account
 * (`acct:<email>`) and per client address (`ip:<address>`).
 */
export const loginThrottles = pgTable('login_throttles', {
  key: text().primaryKey(),
  /** Failures since windowStartedAt; the window restarts after 15 minutes without a lock. */
  failures: integer().notNull().default(0),
  windowStartedAt: tstz().notNull().defaultNow(),
  /** No attempt is checked before this time. */
  lockedUntil: tstz(),
});
