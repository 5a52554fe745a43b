import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns';

/** Dashboard and console users. Owners and members belong to a tenant; support staff to none. */
export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    email: text().notNull().unique(),
    /** argon2id encoded hash. */
    passwordHash: text().notNull(),
    role: text({ enum: ['owner', 'member', 'support'] }).notNull(),
    tenantId: text(),
    totpSecret: text(),
    createdAt: createdAt(),
    lastLoginAt: tstz(),
  },
  (t) => [
    /** Team members of a tenant. */
    index('users_tenant_idx').on(t.tenantId),
  ],
);
