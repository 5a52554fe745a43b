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
  ],
);

export type RefundRequest = typeof refundRequests.$inferSelect;
