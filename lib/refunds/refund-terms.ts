import type { Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import { invoiceRefunds, refundedAmount } from '@/lib/withdrawals/invoice-refunds';
import type { RefundList } from './schemas';

/** Statuses of an invoice that counts as paid: its default refund is only what arrived above the price. */
export const PAID: ReadonlySet<string> = new Set(['DETECTED', 'OVERPAID', 'CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT']);

/**
 * What an invoice may give back: only settled money (confirmed, swept and
 * credited: amountCredited + its fees), never a payment a reorg could still
 * remove, minus refunds not FAILED. The default amount: a paid invoice's
 * overpayment, an unpaid one's (expired, partial) whole settled amount.
 */
export async function refundTerms(db: Db, invoice: Invoice) {
  const settled = new Decimal(invoice.amountCredited).plus(invoice.feeAmount);
  const refunded = new Decimal(await refundedAmount(db, invoice.id));
  const refundable = Decimal.max(0, settled.minus(refunded));
  const excess = Decimal.max(0, settled.minus(invoice.amountExpected).minus(refunded));
  const byDefault = PAID.has(invoice.status) ? Decimal.min(excess, refundable) : refundable;
  // Refunds are whole cents like every withdrawal: round down so the default never exceeds what is refundable.
  // `giveback` (unrounded) is the part the merchant never kept: refunding it costs them nothing (refund-pricing.ts).
  return { settled, refunded, refundable, giveback: byDefault, byDefault: byDefault.toDecimalPlaces(2, Decimal.ROUND_DOWN) };
}

export async function refundList(db: Db, invoice: Invoice): Promise<RefundList> {
  const t = await refundTerms(db, invoice);
  return {
    invoiceId: invoice.id,
    settled: formatAmount(t.settled),
    refunded: formatAmount(t.refunded),
    refundable: formatAmount(t.refundable),
    data: await invoiceRefunds(db, invoice.id),
  };
}
