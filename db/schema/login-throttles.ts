import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns';

/**
 * Attempt counters that slow brute force and floods (lib/auth/throttle.ts): per
 * account and address pair (`pair:<email>|<address>`), per address (`ip:`), per
 * account from everywhere (`acct:`), sign-ups per address (`signup:`) and 2FA
 * changes per user (`2fa:`). Attempts are counted before the work they guard.
 */
export const loginThrottles = pgTable('login_throttles', {
  key: text().primaryKey(),
  /** Attempts counted since windowStartedAt (a successful sign-in gives its one back); the window restarts after it ends without a lock. */
  failures: integer().notNull().default(0),
  windowStartedAt: tstz().notNull().defaultNow(),
  /** No attempt is checked before this time. */
  lockedUntil: tstz(),
  /** Pair keys only: the last successful sign-in from this address, which makes it a known address for the account. */
  succeededAt: tstz(),
});
