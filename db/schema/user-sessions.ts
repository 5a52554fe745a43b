import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns';
import { users } from './users';

/**
 * A dashboard sign-in. The session JWT only carries this row's id, so signing
 * out, removing a member or expiry takes effect on the next request.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Absolute expiry: the session ends then whatever the activity. */
    expiresAt: tstz().notNull(),
    revokedAt: tstz(),
    ip: text(),
    userAgent: text(),
    createdAt: createdAt(),
  },
  (t) => [
    /** Revoking all sessions of a user (member removed, password changed). */
    index('user_sessions_user_idx').on(t.userId),
  ],
);
