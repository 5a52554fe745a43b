import type { Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { refundedAmount } from '@/lib/withdrawals/invoice-refunds';

/** Statuses of an invoice that counts as paid: what it gives back by default is only what arrived above the price. */
export const PAID: ReadonlySet<string> = new Set(['DETECTED', 'OVERPAID', 'CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT']);

const cents = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_DOWN);

/**
 * The one formula for what an invoice may give back (issue 31), read by the merchant's refund, the payer's
 * claim on the checkout, the auto-refund and the merchant's claim links. Refunds not FAILED are subtracted
 * from every figure.
 *
 * - `refundable`: what the merchant may refund, only settled money (`settled`: amountCredited + its fees,
 *   confirmed, swept and credited), never a payment a reorg could still remove.
 * - `byDefault`: the refund made when no amount is given: a paid invoice's overpayment, an unpaid one's
 *   (expired, partial) whole settled amount; `giveback` is the same unrounded, the part the merchant never
 *   kept, which costs them nothing to refund (refund-pricing.ts).
 * - `claimable`: what the payer may ask back on the checkout, counted on what `arrived` (not yet on what
 *   settled, so they can give an address while confirmations run): a paid invoice's excess over its price,
 *   an expired one's whole receipt. Nothing while the invoice still waits for payment (PENDING,
 *   PARTIALLY_PAID: the payer pays the remainder) or when its settlement failed (the merchant sorts that out first).
 *
 * Amounts paid out are whole cents like every withdrawal: `byDefault` and `claimable` are rounded down, so
 * neither exceeds what may be given.
 */
export async function givebackTerms(db: Db, invoice: Invoice) {
  const refunded = new Decimal(await refundedAmount(db, invoice.id));
  const paid = PAID.has(invoice.status);

  const arrived = new Decimal(invoice.amountReceived);
  const asked = paid ? arrived.minus(invoice.amountExpected) : invoice.status === 'EXPIRED' ? arrived : new Decimal(0);
  const claimable = asked.lte(0) ? new Decimal(0) : cents(Decimal.max(0, asked.minus(refunded)));

  const settled = new Decimal(invoice.amountCredited).plus(invoice.feeAmount);
  const refundable = Decimal.max(0, settled.minus(refunded));
  const excess = Decimal.max(0, settled.minus(invoice.amountExpected).minus(refunded));
  const giveback = paid ? Decimal.min(excess, refundable) : refundable;

  return { arrived, settled, refunded, claimable, refundable, giveback, byDefault: cents(giveback) };
}

export type GivebackTerms = Awaited<ReturnType<typeof givebackTerms>>;
