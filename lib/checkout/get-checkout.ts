import { and, asc, eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { chainCursors, chainTransfers, invoices, orders, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { getNetwork } from '@/lib/chain/network';
import { isId } from '@/lib/ids';
import { Decimal, formatAmount } from '@/lib/money';
import { checkoutRefund } from './checkout-refund';

export type CheckoutState = NonNullable<Awaited<ReturnType<typeof getCheckout>>>;

/**
 * What the public checkout page may show about one invoice: amounts, address,
 * status, confirmations and the tenant's name, nothing else (no metadata, no
 * external ids, no other invoices). Invoice ids carry 80 random bits, so the
 * URL itself is the capability. Null for unknown ids.
 */
export async function getCheckout(db: Db, invoiceId: string) {
  if (!isId('invoice', invoiceId)) return null;
  const [row] = await db
    .select({ invoice: invoices, tenantName: tenants.name, tenantSlug: tenants.slug })
    .from(invoices)
    .innerJoin(tenants, eq(tenants.id, invoices.tenantId))
    .where(eq(invoices.id, invoiceId));
  if (!row) return null;
  const inv = row.invoice;
  const [transfers, cursor, order, refund] = await Promise.all([
    db
      .select({ amount: chainTransfers.amount, blockNumber: chainTransfers.blockNumber, txHash: chainTransfers.txHash })
      .from(chainTransfers)
      .where(eq(chainTransfers.invoiceId, inv.id))
      .orderBy(asc(chainTransfers.blockNumber)),
    db
      .select({ lastBlock: chainCursors.lastBlock })
      .from(chainCursors)
      .where(and(eq(chainCursors.mode, inv.mode), eq(chainCursors.chainId, inv.chainId))),
    db.select({ id: orders.id }).from(orders).where(eq(orders.invoiceId, inv.id)),
    checkoutRefund(db, inv),
  ]);
  const head = cursor[0]?.lastBlock;
  const received = new Decimal(inv.amountReceived);
  const remaining = Decimal.max(0, new Decimal(inv.amountExpected).minus(received));
  // Confirmations of the payment that completed the amount (the last one counted).
  const lastBlock = transfers.at(-1)?.blockNumber;
  const confirmations = head === undefined || lastBlock === undefined ? 0 : Math.max(0, head - lastBlock);
  const net = getNetwork(inv.mode);
  const payUri =
    net.tokenAddress && remaining.gt(0)
      ? `ethereum:${net.tokenAddress}@${inv.chainId}/transfer?address=${inv.depositAddress}&uint256=${parseUnits(remaining.toFixed(), net.decimals)}`
      : inv.depositAddress;
  return {
    id: inv.id,
    mode: inv.mode,
    status: inv.status,
    tenantName: row.tenantName,
    amountExpected: formatAmount(inv.amountExpected),
    amountReceived: formatAmount(received),
    remaining: formatAmount(remaining),
    /** Accepted short of the amount under the merchant's underpayment tolerance (0 unless so). */
    amountShortfall: formatAmount(inv.amountShortfall),
    /** The merchant's price when it was set in a fiat currency (the USDT amount was fixed from it at creation). */
    price: inv.priceCurrency && inv.priceAmount ? { currency: inv.priceCurrency, amount: formatAmount(inv.priceAmount) } : null,
    token: 'USDT' as const,
    network: 'BNB Smart Chain (BEP-20)',
    depositAddress: inv.depositAddress,
    payUri,
    payin: inv.payinCurrency
      ? { currency: inv.payinCurrency, amount: inv.payinAmount ? formatAmount(inv.payinAmount) : null, address: inv.payinAddress, tag: inv.payinTag }
      : null,
    confirmations,
    confirmationsRequired: inv.confirmationsRequired,
    payments: transfers.length,
    expiresAt: inv.expiresAt.toISOString(),
    /** Where to send the customer back: the store page for storefront orders. */
    /** What the payer may ask back and their refund address proposal (null when nothing was ever to give back). */
    refund,
    returnUrl: order[0] ? `/store/${row.tenantSlug}${inv.mode === 'test' ? '?mode=test' : ''}` : null,
  };
}
