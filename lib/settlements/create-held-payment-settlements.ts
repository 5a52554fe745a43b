import { and, eq, isNull, sql } from 'drizzle-orm';
import { invoices, heldPayments, settlements, tenants } from '@/db/schema';
import { sweepableHeight } from '@/lib/chain/cursor';
import type { Network } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { settlementFee } from '@/lib/invoices/fee';

/**
 * Settlement fan-out for held payments the merchant resolved on this network
 * (credited in another token, or refunded): once the payment has this
 * network's confirmations and the invoice's deposit address has no other
 * settlement running (one sender at a time), it gets a settlement of its own
 * in its own token: `held_credit` (the invoice fee, like any payment) or
 * `refund` (no fee). finishSettlement credits the balance, and for a refund
 * creates the withdrawal to the sender in the same transaction. Returns the
 * new settlement ids.
 */
export async function createHeldPaymentSettlements(db: Db, net: Network, opts: { limit?: number } = {}): Promise<string[]> {
  const height = await sweepableHeight(db, net);
  if (!height) return [];
  const due = await db
    .select({ id: heldPayments.id })
    .from(heldPayments)
    .where(
      and(
        eq(heldPayments.mode, net.mode),
        eq(heldPayments.chainId, net.chainId),
        sql`${heldPayments.sweep} is not null and ${heldPayments.settlementId} is null`,
        sql`${heldPayments.blockNumber} <= ${Math.min(height.cursor - net.confirmations, height.final)}`,
      ),
    )
    .limit(opts.limit ?? 100);
  const created: string[] = [];
  for (const { id } of due) {
    const sid = await db.transaction(async (tx) => {
      const [held] = await tx
        .select()
        .from(heldPayments)
        .where(and(eq(heldPayments.id, id), isNull(heldPayments.settlementId)))
        .for('update', { skipLocked: true });
      if (!held?.sweep) return null;
      // The invoice row serialises this with the invoice's own fan-out (createSettlements locks it too).
      const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, held.invoiceId)).for('update', { skipLocked: true });
      if (!invoice) return null;
      const [busy] = await tx
        .select({ id: settlements.id })
        .from(settlements)
        .where(and(eq(settlements.invoiceId, invoice.id), sql`${settlements.status} in ('pending', 'processing')`));
      if (busy) return null;
      const [tenant] = await tx.select({ rate: tenants.invoiceFeeRate }).from(tenants).where(eq(tenants.id, held.tenantId));
      const { fee, net: netAmount } = held.sweep === 'credit' ? settlementFee(held.amount, tenant!.rate) : { fee: '0', net: held.amount };
      const settlementId = newId('settlement');
      await tx.insert(settlements).values({
        id: settlementId,
        invoiceId: invoice.id,
        tenantId: held.tenantId,
        mode: held.mode,
        chainId: held.chainId,
        token: held.token,
        kind: held.sweep === 'credit' ? 'held_credit' : 'refund',
        amount: held.amount,
        feeAmount: fee,
        netAmount,
      });
      await tx.update(heldPayments).set({ settlementId }).where(eq(heldPayments.id, held.id));
      return settlementId;
    });
    if (sid) created.push(sid);
  }
  return created;
}
