import { and, asc, count, desc, eq, ne } from 'drizzle-orm';
import { refundRequests, withdrawals, type Invoice } from '@/db/schema';
import { formatAddress } from '@/lib/chain/deposit-keys';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { Decimal, formatAmount } from '@/lib/money';
import { givebackTerms } from '@/lib/refunds/giveback-terms';
import { givebackNetworkFee } from '@/lib/refunds/refund-pricing';

/**
 * The refund part of the public checkout: what the payer may ask back, their
 * latest proposal and the refunds sent, nothing of the merchant's side (no
 * merchant fees, no balance); the network fee of sending it back is the payer's to see. Null when the invoice never had anything to give back,
 * so a normal payment costs no extra query beyond the cheap status test.
 */
export async function checkoutRefund(db: Db, inv: Invoice) {
  if (inv.status === 'PENDING' || inv.status === 'PARTIALLY_PAID' || /^0(\.0*)?$/.test(inv.amountReceived)) return null;
  const [claim, [latest], [made], refunds, cost] = await Promise.all([
    givebackTerms(db, inv).then((t) => t.claimable),
    db
      .select()
      .from(refundRequests)
      .where(and(eq(refundRequests.invoiceId, inv.id), ne(refundRequests.status, 'SUPERSEDED')))
      .orderBy(desc(refundRequests.createdAt))
      .limit(1),
    db.select({ n: count() }).from(refundRequests).where(eq(refundRequests.invoiceId, inv.id)),
    db
      // What reached (or will reach) the payer: the amount less a network fee taken from it.
      .select({ amount: withdrawals.netAmount, status: withdrawals.status, txHash: withdrawals.txHash, to: withdrawals.destinationAddress })
      .from(withdrawals)
      .where(eq(withdrawals.refundOfInvoiceId, inv.id))
      .orderBy(asc(withdrawals.createdAt)),
    givebackNetworkFee(db, inv),
  ]);
  if (claim.lt('0.01') && !latest && refunds.length === 0) return null;
  const proposalsLeft = Math.max(0, env().REFUND_REQUESTS_MAX_PER_INVOICE - Number(made!.n));
  return {
    /** USDT the payer may still ask back: excess over the price, or all of an expired invoice's payments, minus refunds. */
    claimable: formatAmount(claim),
    canPropose: claim.gte('0.01') && proposalsLeft > 0,
    /** The network fee of sending it back, shown before the payer confirms: taken from the refund when `networkFeePaidBy` is payer. */
    networkFee: formatAmount(cost.networkFee),
    /** The asset given back (the invoice's token). */
    feeToken: inv.token,
    networkFeePaidBy: cost.paidBy,
    /** What reaches the payer's address if all of `claimable` is refunded. */
    youReceive: formatAmount(Decimal.max(0, cost.paidBy === 'payer' ? claim.minus(cost.networkFee) : claim)),
    proposalsLeft,
    request: latest
      ? {
          status: latest.status,
          destinationAddress: formatAddress(latest.destinationAddress),
          amount: formatAmount(latest.amount),
          declineReason: latest.declineReason,
          createdAt: latest.createdAt.toISOString(),
        }
      : null,
    refunds: refunds.map((r) => ({ amount: formatAmount(r.amount), status: r.status, txHash: r.txHash, to: r.to })),
  };
}

export type CheckoutRefund = NonNullable<Awaited<ReturnType<typeof checkoutRefund>>>;
