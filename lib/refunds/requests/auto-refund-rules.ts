import { eq, min } from 'drizzle-orm';
import { chainTransfers, type Invoice, type Tenant } from '@/db/schema';
import type { RefundRequestSource } from '@/db/schema/refund-requests';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { givebackTerms, PAID } from '@/lib/refunds/giveback-terms';

/**
 * Why the auto-refund policy leaves a proposal to the merchant (its `pendingReason`, shown in the dashboard and the
 * API). These are final for the proposal: it is never automatic afterwards (`autoRefundAfter` null).
 */
export const HOLD_REASONS = {
  /** The proposer knew only the invoice id (`invoice_link`): anyone who saw the id could have sent it. */
  manualSource: 'manual_source',
  /** The payment was first seen before the policy was (last) switched on. */
  beforePolicy: 'before_policy',
  /** The overpayment is above min(price × autoRefundMaxMultiple, autoRefundMaxAmount). */
  overBound: 'over_auto_refund_bound',
  /** A late or partial payment of an unpaid (expired) invoice: always the merchant's call. */
  unpaidInvoice: 'unpaid_invoice',
} as const;

/** Proofs that the proposer is the payer (the checkout's claim token) or was sent by the merchant (a claim link). */
const SAFE_SOURCES: ReadonlySet<RefundRequestSource> = new Set(['payer_token', 'claim_link']);

export type AutoRefundPolicy = Pick<
  Tenant,
  'autoRefundOverpayments' | 'autoRefundEnabledAt' | 'autoRefundDelaySeconds' | 'autoRefundMaxMultiple' | 'autoRefundMaxAmount'
>;

/**
 * When the gateway first saw a payment to the invoice: its earliest chain_transfers row's `created_at` (written by
 * the watcher when it found the transfer). That is our clock, the one `autoRefundEnabledAt` is on; a transfer's
 * block time is the chain's (and test chains move it). Invoices have no "detected at" column. Null: no payment recorded.
 */
export async function paymentFirstSeenAt(db: Db, invoiceId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(chainTransfers.createdAt) })
    .from(chainTransfers)
    .where(eq(chainTransfers.invoiceId, invoiceId));
  return row?.at ?? null;
}

/** The most the policy refunds by itself on this invoice: min(price × multiple, amount). */
export const autoRefundBound = (tenant: AutoRefundPolicy, invoice: Pick<Invoice, 'amountExpected'>) =>
  Decimal.min(new Decimal(invoice.amountExpected).times(tenant.autoRefundMaxMultiple), tenant.autoRefundMaxAmount);

/**
 * The rules, checked when a proposal is made and again when the refund would be made (the policy may have been
 * switched off and on, the bound changed, the amount moved): null when the policy may refund `amount` of this
 * invoice to a proposal from `source`; 'off' when the policy is off; otherwise the reason it never will.
 */
export async function autoRefundRefusal(
  db: Db,
  tenant: AutoRefundPolicy,
  invoice: Pick<Invoice, 'id' | 'status' | 'amountExpected'>,
  source: RefundRequestSource,
  amount: Decimal,
): Promise<string | 'off' | null> {
  if (!tenant.autoRefundOverpayments || !tenant.autoRefundEnabledAt) return 'off';
  if (!SAFE_SOURCES.has(source)) return HOLD_REASONS.manualSource;
  if (!PAID.has(invoice.status)) return HOLD_REASONS.unpaidInvoice;
  const seen = await paymentFirstSeenAt(db, invoice.id);
  if (!seen || seen < tenant.autoRefundEnabledAt) return HOLD_REASONS.beforePolicy;
  if (amount.gt(autoRefundBound(tenant, invoice))) return HOLD_REASONS.overBound;
  return null;
}

/**
 * A new proposal's `autoRefundAfter` (now + the tenant's delay, during which `refund_request.created` is delivered
 * and the merchant can decline) and `pendingReason` (why it is the merchant's to decide; null when the policy is
 * simply off). `amount`: what the proposal may ask back (default the payer's claim on the invoice now).
 */
export async function autoRefundAfterFor(
  tx: Db,
  tenant: AutoRefundPolicy,
  invoice: Invoice,
  source: RefundRequestSource,
  now: Date,
  amount?: Decimal,
): Promise<{ autoRefundAfter: Date | null; pendingReason: string | null }> {
  const refusal = await autoRefundRefusal(tx, tenant, invoice, source, amount ?? (await givebackTerms(tx, invoice)).claimable);
  if (refusal === 'off') return { autoRefundAfter: null, pendingReason: null };
  if (refusal) return { autoRefundAfter: null, pendingReason: refusal };
  return { autoRefundAfter: new Date(now.getTime() + tenant.autoRefundDelaySeconds * 1000), pendingReason: null };
}
