import { asc, eq } from 'drizzle-orm';
import { chainTransfers, invoices, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { isId } from '@/lib/ids';
import { formatAmount } from '@/lib/money';
import { networkLabel } from './network-label';

/** Statuses in which the payment is confirmed on chain: what a receipt may say was paid. */
const RECEIPTED = new Set(['CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT', 'FAILED']);

export type Receipt = NonNullable<Awaited<ReturnType<typeof getReceipt>>>;

/**
 * The payer's receipt of a confirmed invoice: what the public checkout shows
 * (tenant name, amounts, network, the payments' transactions), nothing private
 * (no metadata, description, external id or addresses beyond the transactions,
 * which are public on chain anyway). Null for unknown ids and for invoices not
 * confirmed yet: a receipt is never issued for money that can still vanish in a reorg.
 */
export async function getReceipt(db: Db, invoiceId: string) {
  if (!isId('invoice', invoiceId)) return null;
  const [row] = await db
    .select({ invoice: invoices, tenantName: tenants.name })
    .from(invoices)
    .innerJoin(tenants, eq(tenants.id, invoices.tenantId))
    .where(eq(invoices.id, invoiceId));
  if (!row || !RECEIPTED.has(row.invoice.status)) return null;
  const inv = row.invoice;
  const payments = await db
    .select({ txHash: chainTransfers.txHash, chainId: chainTransfers.chainId, amount: chainTransfers.amount, blockTime: chainTransfers.blockTime })
    .from(chainTransfers)
    .where(eq(chainTransfers.invoiceId, inv.id))
    .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex));
  return {
    id: inv.id,
    mode: inv.mode,
    tenantName: row.tenantName,
    token: inv.token,
    network: networkLabel(inv.chain),
    amountExpected: formatAmount(inv.amountExpected),
    amountPaid: formatAmount(inv.amountReceived),
    price: inv.priceCurrency && inv.priceAmount ? { currency: inv.priceCurrency, amount: formatAmount(inv.priceAmount) } : null,
    /** When the last payment's block was made: when the invoice was paid. */
    paidAt: (payments.at(-1)?.blockTime ?? inv.updatedAt).toISOString(),
    payments: payments.map((p) => ({ txHash: p.txHash, chainId: p.chainId, amount: formatAmount(p.amount) })),
    returnUrl: inv.returnUrl,
  };
}
