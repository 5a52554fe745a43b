import { sql } from 'drizzle-orm';
import type { Invoice } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { getRail } from '@/lib/chain/network';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import type { WithdrawalOptions } from '@/lib/withdrawals/create-withdrawal';
import { refundNetworkFeePayer } from '@/lib/withdrawals/giveback-options';
import { networkTerms } from '@/lib/withdrawals/network-terms';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { MIN_WITHDRAWAL } from '@/lib/withdrawals/schemas';
import type { GivebackTerms } from './giveback-terms';
import { priceRefund, refundCosts, type RefundFacts } from './price-refund';

/**
 * How a refund of `amount` of an invoice is priced (issue 30 §2; docs/invoices.md, Refunds):
 *
 * - The part the merchant never kept (`giveback`: a paid invoice's excess over its price, every payment of an
 *   unpaid one) is refunded first and costs the merchant nothing: the invoice fee charged on it comes back
 *   in the same statement (`invoice_fee_refund`, from the settlements' heldFee, which waited in the hot
 *   wallet for this), and the network fee is the payer's by default, taken from what they get
 *   (the tenant's `refundNetworkFeePayer`).
 * - The price itself, Stripe's rule: refunding it costs no fee beyond the network's, which the merchant
 *   pays; the invoice fee charged on it is not returned.
 * - No percentage withdrawal fee on either.
 */
export async function refundPricing(db: Db, owner: { tenantId: string; mode: Mode }, invoice: Invoice, amount: Decimal, terms: GivebackTerms) {
  const p = priceRefund(await refundFacts(db, owner, invoice, terms), amount.toFixed(2));
  const options: WithdrawalOptions = {
    ofInvoiceId: invoice.id,
    percentFee: false,
    networkFeeFrom: p.networkFeePaidBy === 'payer' ? 'amount' : 'balance',
    ...(p.invoiceFeeReturned.gt(0) ? { invoiceFeeRefund: p.invoiceFeeReturned } : {}),
  };
  return { ...p, feeBack: p.invoiceFeeReturned, options };
}

/**
 * The figures priceRefund prices a refund of this invoice with (price-refund.ts): what may be refunded and
 * given back, the invoice fee held for the giveback and not yet returned, the rail's minimum and network fee, and
 * who pays the network fee of a giveback. The dashboard's forms get the same figures.
 */
export async function refundFacts(db: Db, owner: { tenantId: string; mode: Mode }, invoice: Invoice, terms: GivebackTerms): Promise<RefundFacts> {
  // The invoice fee held for what may be given back, less what refunds not FAILED already returned.
  const [held] = rowsOf<{ held: string; returned: string }>(
    await db.execute(sql`
      select coalesce((select sum(held_fee) from settlements where invoice_id = ${invoice.id} and status = 'completed'), 0)::text as held,
             coalesce((select sum(l.amount) from ledger_entries l join withdrawals w on w.id = l.reference_id
                        where l.kind = 'invoice_fee_refund' and w.refund_of_invoice_id = ${invoice.id} and w.status <> 'FAILED'), 0)::text as returned`),
  );
  const rail = getRail(owner.mode, invoice.chain, invoice.token);
  const net = rail ? networkTerms(rail) : null;
  return {
    token: invoice.token,
    network: CHAIN_SPECS[invoice.chain].name,
    refundable: terms.refundable.toFixed(),
    giveback: terms.giveback.toFixed(),
    heldFeeLeft: Decimal.max(0, new Decimal(held!.held).minus(held!.returned)).toFixed(),
    networkFee: (net?.networkFee ?? new Decimal(0)).toFixed(),
    minRefund: (net?.minWithdrawal ?? new Decimal(MIN_WITHDRAWAL)).toFixed(),
    givebackFeePaidBy: await refundNetworkFeePayer(db, owner.tenantId),
  };
}

/**
 * The network fee of giving back what the merchant never kept on this invoice's rail, and who pays it (the
 * tenant's choice): the payer's checkout shows it before they confirm.
 */
export async function givebackNetworkFee(db: Db, invoice: Invoice) {
  const rail = getRail(invoice.mode, invoice.chain, invoice.token);
  return {
    networkFee: rail ? networkTerms(rail).networkFee : new Decimal(0),
    paidBy: await refundNetworkFeePayer(db, invoice.tenantId),
  };
}

/**
 * What a refund of `amount` would do, for the forms that show it before anyone confirms (the dashboard's
 * refund form, the payer's checkout): the network fee, who pays it, and what reaches the payer.
 */
export async function quoteRefund(db: Db, owner: { tenantId: string; mode: Mode }, invoice: Invoice, amount: Decimal, terms: GivebackTerms) {
  return refundCosts(await refundFacts(db, owner, invoice, terms), amount);
}
