import type { Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { PAID } from '@/lib/refunds/refund-terms';
import { refundedAmount } from '@/lib/withdrawals/invoice-refunds';

/**
 * What the payer may ask back on the checkout, counted on what arrived (not
 * yet on what settled, so they can give an address while confirmations run):
 * a paid invoice's excess over its price, an expired one's whole receipt,
 * minus refunds not FAILED. Nothing while the invoice still waits for payment
 * (PENDING, PARTIALLY_PAID: the payer pays the remainder) or when its
 * settlement failed (the merchant sorts that out first). Whole cents, rounded down.
 */
export async function payerClaim(db: Db, invoice: Invoice): Promise<Decimal> {
  const received = new Decimal(invoice.amountReceived);
  let base: Decimal;
  if (PAID.has(invoice.status)) base = received.minus(invoice.amountExpected);
  else if (invoice.status === 'EXPIRED') base = received;
  else return new Decimal(0);
  if (base.lte(0)) return new Decimal(0);
  const refunded = await refundedAmount(db, invoice.id);
  return Decimal.max(0, base.minus(refunded)).toDecimalPlaces(2, Decimal.ROUND_DOWN);
}
