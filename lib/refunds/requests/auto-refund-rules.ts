import { eq, min } from 'drizzle-orm';
import { chainTransfers, type Invoice, type Tenant } from '@/db/schema';
import type { RefundRequestSource } from '@/db/schema/refund-requests';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { accountBytes } from '@/lib/chain/address-codecs';
import { formatAddress } from '@/lib/chain/deposit-keys';
import type { Mode } from '@/lib/mode';
import { givebackTerms, PAID } from '@/lib/refunds/giveback-terms';
import { getWithdrawalControls } from '@/lib/withdrawal-controls/get-withdrawal-controls';
import { isListedDestination } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { paymentSenders } from './payment-senders';

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
  /**
   * A claim link made with an API key (issue 42): a key makes links without the dashboard's step-up, and could
   * redeem its own link; so its links are the merchant's to approve, never the policy's.
   */
  apiKeyLink: 'api_key_link',
  /**
   * A claim link's address, with the allow-list on, is neither listed nor a sender of the invoice's payments: whoever
   * holds a link chooses the address, so the allow-list binds the policy there as it binds API refunds (issue 42).
   */
  notAllowed: 'destination_not_allowed',
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

/** What a claim link's request adds to the rules: who made the link, where it pays, in which tenant and mode. */
export interface LinkContext {
  /** refund_claims.created_by (`user:…`, `api_key:…`); null when the link is gone (held, as an API key's). */
  createdBy: string | null;
  /** The request's stored address (lower-case `0x…`, `41…`). */
  destination: string;
  owner: { tenantId: string; mode: Mode };
}

/**
 * A claim link pays an address chosen by whoever holds the link, not by the chain sender: made by an API key it is
 * never automatic (a key skips step-up and can redeem its own link), and with the allow-list on it pays by itself
 * only a listed address or a sender of the invoice's payments (money going back where it came from).
 */
async function linkRefusal(db: Db, link: LinkContext, invoiceId: string): Promise<string | null> {
  if (!link.createdBy?.startsWith('user:')) return HOLD_REASONS.apiKeyLink;
  const controls = await getWithdrawalControls(db, link.owner);
  if (!controls.allowlistEnabled) return null;
  const wire = formatAddress(link.destination);
  const bytes = accountBytes(wire);
  if ((await paymentSenders(db, invoiceId)).some((s) => accountBytes(s) === bytes)) return null;
  return (await isListedDestination(db, link.owner, wire)) ? null : HOLD_REASONS.notAllowed;
}

/**
 * The rules, checked when a proposal is made and again when the refund would be made (the policy may have been
 * switched off and on, the bound changed, the amount moved, the allow-list switched on): null when the policy may
 * refund `amount` of this invoice to a proposal from `source`; 'off' when the policy is off; otherwise the reason it
 * never will. `link`: a claim link's request (its creator and address), required for that source.
 */
export async function autoRefundRefusal(
  db: Db,
  tenant: AutoRefundPolicy,
  invoice: Pick<Invoice, 'id' | 'status' | 'amountExpected'>,
  source: RefundRequestSource,
  amount: Decimal,
  link?: LinkContext,
): Promise<string | 'off' | null> {
  if (!tenant.autoRefundOverpayments || !tenant.autoRefundEnabledAt) return 'off';
  if (!SAFE_SOURCES.has(source)) return HOLD_REASONS.manualSource;
  if (source === 'claim_link') {
    const refusal = link ? await linkRefusal(db, link, invoice.id) : HOLD_REASONS.apiKeyLink;
    if (refusal) return refusal;
  }
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
  link?: LinkContext,
): Promise<{ autoRefundAfter: Date | null; pendingReason: string | null }> {
  const refusal = await autoRefundRefusal(tx, tenant, invoice, source, amount ?? (await givebackTerms(tx, invoice)).claimable, link);
  if (refusal === 'off') return { autoRefundAfter: null, pendingReason: null };
  if (refusal) return { autoRefundAfter: null, pendingReason: refusal };
  return { autoRefundAfter: new Date(now.getTime() + tenant.autoRefundDelaySeconds * 1000), pendingReason: null };
}
