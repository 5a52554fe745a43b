import { sql } from 'drizzle-orm';
import type { Invoice } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { getRail } from '@/lib/chain/network';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import type { WithdrawalOptions } from '@/lib/withdrawals/create-withdrawal';
import { refundNetworkFeePayer } from '@/lib/withdrawals/giveback-options';
import { networkTerms } from '@/lib/withdrawals/network-terms';
import type { GivebackTerms } from './giveback-terms';

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
  const giveback = Decimal.min(amount, terms.giveback);
  const price = amount.minus(giveback);
  // The invoice fee held for what may be given back, less what refunds not FAILED already returned.
  const [held] = rowsOf<{ held: string; returned: string }>(
    await db.execute(sql`
      select coalesce((select sum(held_fee) from settlements where invoice_id = ${invoice.id} and status = 'completed'), 0)::text as held,
             coalesce((select sum(l.amount) from ledger_entries l join withdrawals w on w.id = l.reference_id
                        where l.kind = 'invoice_fee_refund' and w.refund_of_invoice_id = ${invoice.id} and w.status <> 'FAILED'), 0)::text as returned`),
  );
  const heldLeft = Decimal.max(0, new Decimal(held!.held).minus(held!.returned));
  // Its share of what is left: all of it when this refund gives back all that may be given back.
  const feeBack =
    giveback.isZero() || terms.giveback.isZero()
      ? new Decimal(0)
      : giveback.gte(terms.giveback)
        ? heldLeft
        : heldLeft.times(giveback).div(terms.giveback).toDecimalPlaces(18, Decimal.ROUND_DOWN);
  const payer = price.gt(0) ? 'merchant' : await refundNetworkFeePayer(db, owner.tenantId);
  const options: WithdrawalOptions = {
    ofInvoiceId: invoice.id,
    percentFee: false,
    networkFeeFrom: payer === 'payer' ? 'amount' : 'balance',
    ...(feeBack.gt(0) ? { invoiceFeeRefund: feeBack } : {}),
  };
  return { giveback, price, feeBack, networkFeePaidBy: payer, options };
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
  const rail = getRail(owner.mode, invoice.chain, invoice.token);
  const networkFee = rail ? networkTerms(rail).networkFee : new Decimal(0);
  const p = await refundPricing(db, owner, invoice, amount, terms);
  const payerPays = p.networkFeePaidBy === 'payer';
  return {
    amount,
    networkFee,
    networkFeePaidBy: p.networkFeePaidBy,
    payerReceives: payerPays ? amount.minus(networkFee) : amount,
    invoiceFeeReturned: p.feeBack,
    balanceDebit: amount.plus(payerPays ? 0 : networkFee).minus(p.feeBack),
  };
}
