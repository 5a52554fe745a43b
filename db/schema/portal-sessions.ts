import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, mode, tstz } from './columns';
import { tenants } from './tenants';

/**
 * A customer portal link (issue 48 §1): one-time and short-lived, e-mailed to the customer or handed to the merchant
 * (POST /v1/portal-sessions). Opening it (GET /portal/<token>) redeems it once and starts a browser session whose
 * secret lives only in an httpOnly cookie. Neither secret is stored in clear: only their sha256, so whoever reads the
 * database cannot act as the customer (the claim-link model, lib/invoices/claim-token.ts).
 */
export const portalSessions = pgTable(
  'portal_sessions',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    /** The customer, trimmed and lower-cased: the portal shows this tenant+mode's subscriptions with this e-mail (maybe none). */
    customerEmail: text().notNull(),
    /** sha256 (hex) of the link's token; the token itself is only in the link. */
    linkTokenHash: text().notNull(),
    /** The link works until then (15 minutes after it is made). */
    expiresAt: tstz().notNull(),
    /** Set once when the link is opened: a second opening finds it set and is refused. */
    redeemedAt: tstz(),
    /** sha256 (hex) of the browser session's secret (the cookie), set when the link is redeemed. */
    sessionSecretHash: text(),
    /** The browser session works until then (30 minutes after redemption). */
    sessionExpiresAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    /** The link's lookup at redemption, and no two links share a token. */
    uniqueIndex('portal_sessions_link_token_uq').on(t.linkTokenHash),
    /** The page's lookup of its session by the cookie's hash. */
    uniqueIndex('portal_sessions_session_secret_uq').on(t.sessionSecretHash),
    /** A tenant's links, newest first (support, cleanup). */
    index('portal_sessions_tenant_created_idx').on(t.tenantId, t.mode, t.createdAt),
  ],
);

export type PortalSession = typeof portalSessions.$inferSelect;
