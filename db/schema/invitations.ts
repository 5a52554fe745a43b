import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns';
import { tenants } from './tenants';

/** An owner's invitation of a team member; accepted through a one-time link. */
export const invitations = pgTable(
  'invitations',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    email: text().notNull(),
    role: text({ enum: ['member'] })
      .notNull()
      .default('member'),
    /** SHA-256 of the link token; the token itself is shown once to the owner. */
    tokenHash: text().notNull(),
    invitedBy: text().notNull(),
    expiresAt: tstz().notNull(),
    acceptedAt: tstz(),
    revokedAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    /** Token lookup when the link is opened. */
    uniqueIndex('invitations_token_uq').on(t.tokenHash),
    /** Pending invitations of a tenant (team page). */
    index('invitations_tenant_idx').on(t.tenantId, t.createdAt),
  ],
);
