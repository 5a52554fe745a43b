import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, mode, money, tstz } from './columns';
import { invoices } from './invoices';
import { tenants } from './tenants';
import { withdrawals } from './withdrawals';

/**
 * PENDING: the merchant (or the auto-refund policy) has not decided; APPROVED: the refund (a withdrawal) was made;
 * DECLINED: the merchant said no (declineReason is shown to the payer); SUPERSEDED: the payer gave another
 * address before anyone decided.
 */
export const REFUND_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'DECLINED', 'SUPERSEDED'] as const;
export type RefundRequestStatus = (typeof REFUND_REQUEST_STATUSES)[number];

/**
 * How the proposer proved they may say where the money goes (issue 30 §1): `payer_token` carried the invoice's
 * secret claim token (the checkout URL the payer was given); `claim_link` used a merchant-issued refund claim link;
 * `invoice_link` knew only the invoice id (proposals made before claim tokens existed; no longer accepted, never
 * auto-refunded).
 */
export const REFUND_REQUEST_SOURCES = ['payer_token', 'claim_link', 'invoice_link'] as const;
export type RefundRequestSource = (typeof REFUND_REQUEST_SOURCES)[number];

/** OPEN: the payer may still use it; USED: a proposal was made with it; CANCELED by the merchant; EXPIRED unused. */
export const REFUND_CLAIM_STATUSES = ['OPEN', 'USED', 'CANCELED', 'EXPIRED'] as const;
export type RefundClaimStatus = (typeof REFUND_CLAIM_STATUSES)[number];

/**
 * A merchant-issued refund claim link (issue 30 §1), for a payer without the checkout's claim token (paid from an
 * exchange, lost the page): the merchant sets the amount, sends the one-time URL out of band, and the payer enters
 * the address there, which makes a `claim_link` refund request under the same approval rules.
 */
export const refundClaims = pgTable(
  'refund_claims',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    invoiceId: text()
      .notNull()
      .references(() => invoices.id),
    /** What the payer may claim, in the invoice's token. */
    amount: money().notNull(),
    /** sha256 (hex) of the link's secret; the secret itself is shown once, to the merchant who made it. */
    tokenHash: text().notNull().unique(),
    status: text({ enum: REFUND_CLAIM_STATUSES }).notNull(),
    /** `user:<id>` or `api_key:<id>`. */
    createdBy: text().notNull(),
    expiresAt: tstz().notNull(),
    usedAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    /** The invoice page and GET /v1/refund-claims?invoiceId: an invoice's claim links, newest first. */
    index('refund_claims_invoice_idx').on(t.invoiceId, t.createdAt.desc()),
    /** GET /v1/refund-claims: a tenant's claim links of one mode, newest first. */
    index('refund_claims_tenant_created_idx').on(t.tenantId, t.mode, t.createdAt.desc(), t.id.desc()),
  ],
);

export type RefundClaim = typeof refundClaims.$inferSelect;

/**
 * A payer's proposal, from the hosted checkout, of the address to refund an
 * invoice's late, partial or excess payment to (issue 19). Whoever holds the
 * checkout link may propose; only the merchant (dashboard, API) or the
 * tenant's auto-refund policy for overpayments turns it into a refund.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    invoiceId: text()
      .notNull()
      .references(() => invoices.id),
    /** Lower-case 0x address the payer gave (shown EIP-55 checksummed). */
    destinationAddress: text().notNull(),
    /** What the invoice had to give back when the payer asked (received above the price, or all of an unpaid invoice). */
    amount: money().notNull(),
    status: text({ enum: REFUND_REQUEST_STATUSES }).notNull().default('PENDING'),
    /** The refund made on approval. */
    withdrawalId: text().references(() => withdrawals.id),
    /** The merchant's reason, shown to the payer on the checkout. */
    declineReason: text(),
    /** How the proposer proved they may direct this refund (REFUND_REQUEST_SOURCES). */
    source: text({ enum: REFUND_REQUEST_SOURCES }).notNull(),
    /** The merchant claim link used (source `claim_link`). */
    claimId: text().references(() => refundClaims.id),
    /**
     * Earliest time the auto-refund policy may act on it: created + the tenant's delay, during which
     * `refund_request.created` is delivered and the merchant can decline. Null: never automatic (unsafe source,
     * payment older than the policy's switch-on, over the bound); the merchant decides.
     */
    autoRefundAfter: tstz(),
    /** Why an automatic refund has not been made yet (e.g. the payment is not settled; over the 24 h limit). */
    pendingReason: text(),
    /** `user:<id>`, `api_key:<id>` or `policy` (the tenant's auto-refund policy). */
    decidedBy: text(),
    decidedAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    /** At most one undecided proposal per invoice: a new one supersedes it in the same transaction. */
    uniqueIndex('refund_requests_invoice_pending_uq')
      .on(t.invoiceId)
      .where(sql`${t.status} = 'PENDING'`),
    /** The checkout and the invoice page: an invoice's proposals, newest first; the per-invoice proposal cap. */
    index('refund_requests_invoice_idx').on(t.invoiceId, t.createdAt.desc()),
    /** GET /v1/refund-requests and the dashboard list: a tenant's proposals of one mode, newest first. */
    index('refund_requests_tenant_created_idx').on(t.tenantId, t.mode, t.createdAt.desc(), t.id.desc()),
    /** The auto-refund job: undecided proposals, oldest first. */
    index('refund_requests_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'PENDING'`),
    /** The auto-refund job: undecided proposals whose delay has passed, per tenant and mode (fair share). */
    index('refund_requests_auto_due_idx')
      .on(t.tenantId, t.mode, t.autoRefundAfter)
      .where(sql`${t.status} = 'PENDING' and ${t.autoRefundAfter} is not null`),
  ],
);

export type RefundRequest = typeof refundRequests.$inferSelect;
