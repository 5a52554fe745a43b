import { chainGone } from '@/lib/invoices/chain-gone';
import { asc, eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { chainCursors, chainTransfers, invoices, heldPayments, orders, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { getRail } from '@/lib/chain/network';
import { familyOps } from '@/lib/chain/families';
import { familyOf } from '@/lib/config/rails';
import { isId } from '@/lib/ids';
import { Decimal, formatAmount } from '@/lib/money';
import { checkoutRefund } from './checkout-refund';
import { networkLabel, railLabel } from './network-label';

export type CheckoutState = NonNullable<Awaited<ReturnType<typeof getCheckout>>>;

/**
 * What the public checkout page may show about one invoice: amounts, address,
 * status, confirmations and the tenant's name, nothing else (no metadata, no
 * external ids, no other invoices). Anyone who knows the invoice id may see
 * this; what only the payer (the claim token) may see or do is decided by
 * presentCheckout. Null for unknown ids.
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
  const [transfers, cursor, order, refund, strays] = await Promise.all([
    db
      .select({
        amount: chainTransfers.amount,
        blockNumber: chainTransfers.blockNumber,
        txHash: chainTransfers.txHash,
        chainId: chainTransfers.chainId,
      })
      .from(chainTransfers)
      .where(eq(chainTransfers.invoiceId, inv.id))
      .orderBy(asc(chainTransfers.blockNumber)),
    db.select({ chainId: chainCursors.chainId, lastBlock: chainCursors.lastBlock }).from(chainCursors).where(eq(chainCursors.mode, inv.mode)),
    db.select({ id: orders.id }).from(orders).where(eq(orders.invoiceId, inv.id)),
    checkoutRefund(db, inv),
    db
      .select({
        chain: heldPayments.chain,
        token: heldPayments.token,
        amount: heldPayments.amount,
        mismatch: heldPayments.mismatch,
        status: heldPayments.status,
        refundFailureReason: heldPayments.refundFailureReason,
      })
      .from(heldPayments)
      .where(eq(heldPayments.invoiceId, inv.id))
      .orderBy(asc(heldPayments.createdAt)),
  ]);

  const received = new Decimal(inv.amountReceived);
  const remaining = Decimal.max(0, new Decimal(inv.amountExpected).minus(received));
  // Confirmations of the payment that completed the amount (the last one counted).
  const last = transfers.at(-1);
  // On the payment's own network (a payment credited from another network counts its blocks there).
  const head = last && cursor.find((c) => c.chainId === last.chainId)?.lastBlock;
  const confirmations = head === undefined || !last ? 0 : Math.max(0, head - last.blockNumber);
  const net = getRail(inv.mode, inv.chain, inv.token);
  const family = familyOps(inv.chain);
  // The family's payment URI with the amount (EVM: EIP-681). TRON has none that wallets agree on (docs/tron.md §1,
  // "Checkout"): TronLink and Trust Wallet scan a plain T… address, so the QR holds only that and the page states the amount.
  const depositAddress = family.payerAddress(inv.depositAddress);
  const tokenUri =
    net?.tokenAddress && remaining.gt(0)
      ? family.paymentUri({
          token: net.tokenAddress,
          chainId: inv.chainId,
          to: inv.depositAddress,
          units: parseUnits(remaining.toFixed(), net.decimals),
          decimals: net.decimals,
        })
      : null;
  const qrHasAmount = tokenUri !== null;
  const payUri = tokenUri ?? depositAddress;
  return {
    id: inv.id,
    mode: inv.mode,
    status: inv.status,
    /** Made on a local chain of an earlier dev run: nothing watches its address (chain-gone.ts). */
    notWatched: chainGone(inv),
    tenantName: row.tenantName,
    amountExpected: formatAmount(inv.amountExpected),
    amountReceived: formatAmount(received),
    remaining: formatAmount(remaining),
    /** Accepted short of the amount under the merchant's underpayment tolerance (0 unless so). */
    amountShortfall: formatAmount(inv.amountShortfall),
    /** The merchant's price when it was set in a fiat currency, and the rate (USDT per unit) locked at creation that fixed the USDT amount. */
    price:
      inv.priceCurrency && inv.priceAmount
        ? {
            currency: inv.priceCurrency,
            amount: formatAmount(inv.priceAmount),
            rate: new Decimal(inv.rate ?? '0').toFixed(),
            rateAt: (inv.rateAt ?? inv.createdAt).toISOString(),
          }
        : null,
    token: inv.token,
    network: networkLabel(inv.chain),
    /** "USDT (TRC-20) on TRON": the token, its standard and the network, as the payer's wallet lists it. */
    rail: railLabel(inv.chain, inv.token),
    /** The address form the payer's wallet uses on this network: a refund address must be one. */
    addressFamily: familyOf(inv.chain),
    /** Payments in another token or on another network than the invoice's: shown so the payer knows they arrived and what the merchant did. */
    heldPayments: strays.map((m) => ({
      network: networkLabel(m.chain),
      token: m.token,
      amount: formatAmount(m.amount),
      mismatch: m.mismatch,
      status: m.status,
      /** Held again because sending it back failed (the reason stays with the merchant). */
      refundFailed: m.status === 'held' && m.refundFailureReason !== null,
    })),
    depositAddress,
    payUri,
    /** The QR asks for the amount too (EIP-681); false where it holds only the address (TRON). */
    qrHasAmount,
    payin: inv.payinCurrency
      ? { currency: inv.payinCurrency, amount: inv.payinAmount ? formatAmount(inv.payinAmount) : null, address: inv.payinAddress, tag: inv.payinTag }
      : null,
    confirmations,
    confirmationsRequired: inv.confirmationsRequired,
    payments: transfers.length,
    expiresAt: inv.expiresAt.toISOString(),
    /** What the payer may ask back and their refund address proposal (null when nothing was ever to give back). */
    refund,
    /** Internal: the payer's claim token hash, for presentCheckout to compare; never sent (lib/checkout/present-checkout.ts). */
    claimTokenHash: inv.claimTokenHash,
    /** Where to send the customer back: the merchant's returnUrl, else the store page for storefront orders. */
    returnUrl: inv.returnUrl ?? (order[0] ? `/store/${row.tenantSlug}${inv.mode === 'test' ? '?mode=test' : ''}` : null),
  };
}
