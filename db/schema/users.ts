import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, tstz } from './columns';

/** Dashboard and console users. Owners and members belong to a tenant; support staff to none. */
export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    email: text().notNull().unique(),
    /** argon2id encoded hash. */
    passwordHash: text().notNull(),
    role: text({ enum: ['owner', 'member', 'support', 'compliance'] }).notNull(),
    tenantId: text(),
    /** Base32 TOTP secret once two-factor sign-in is confirmed, sealed (lib/crypto/secret-box.ts); null when 2FA is off. */
    totpSecret: text(),
    /** Secret being enrolled (sealed): becomes totpSecret when the user proves a code from it. */
    totpPendingSecret: text(),
    /** SHA-256 hashes of the unused recovery codes (each works once instead of a TOTP code). */
    recoveryCodeHashes: text().array().notNull().default([]),
    /** The TOTP time step (Unix seconds / 30) of the last code accepted: a code of this step or an earlier one is refused (no reuse inside its window). */
    totpLastStep: integer(),
    createdAt: createdAt(),
    lastLoginAt: tstz(),
  },
  (t) => [
    /** Team members of a tenant. */
    index('users_tenant_idx').on(t.tenantId),
  ],
);
