import { and, eq, sql } from 'drizzle-orm';
import { payoutItems, payouts, type Withdrawal } from '@/db/schema';
import { isoOrNull } from '@/lib/api/schemas';
import { rowsOf, type Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/emit-event';
import { formatAmount } from '@/lib/money';
import { finalNetworkFee, itemNetworkFees } from '@/lib/withdrawals/item-network-fees';

/**
 * The withdrawal-final hook of payouts (registered in lib/payment-hooks.ts), in the transaction that made the
 * withdrawal COMPLETED or FAILED: the item follows it with payout.item.completed|failed, and the last item to end
 * completes the payout with payout.completed. The payout row is locked first, so two items ending at once
 * serialise and exactly one of them sees no item left open (under READ COMMITTED each would otherwise miss the other).
 */
export async function finishPayoutItem(tx: Db, w: Withdrawal): Promise<void> {
  if (w.status !== 'COMPLETED' && w.status !== 'FAILED') return;
  const [found] = await tx.select({ payoutId: payoutItems.payoutId }).from(payoutItems).where(eq(payoutItems.withdrawalId, w.id));
  if (!found) return; // not a payout's withdrawal
  await tx.execute(sql`select 1 from payouts where id = ${found.payoutId} for update`);
  const fees = (await itemNetworkFees(tx, [w.id])).get(w.id)!;
  const networkFee = finalNetworkFee(w.status, fees);
  const [item] = await tx
    .update(payoutItems)
    .set({ status: w.status, networkFee: networkFee.toFixed(), updatedAt: new Date() })
    .where(and(eq(payoutItems.withdrawalId, w.id), eq(payoutItems.status, 'PENDING')))
    .returning();
  if (!item) return; // already final: a second call changes nothing
  const owner = { tenantId: w.tenantId, mode: w.mode };
  await emitEvent(tx, {
    ...owner,
    type: w.status === 'COMPLETED' ? 'payout.item.completed' : 'payout.item.failed',
    subjectId: item.payoutId,
    data: {
      payoutId: item.payoutId,
      position: item.position,
      reference: item.reference,
      status: item.status,
      withdrawalId: w.id,
      chain: w.chain,
      token: w.token,
      destinationAddress: w.destinationAddress,
      amount: formatAmount(w.amount),
      feeAmount: formatAmount(w.feeAmount),
      networkFeeReserved: formatAmount(fees.reserved),
      networkFee: formatAmount(networkFee),
      networkFeeNote: fees.note,
      txHash: w.txHash,
      failureReason: w.failureReason,
    },
  });
  const [open] = rowsOf<{ open: boolean; completed: number; failed: number }>(
    await tx.execute(sql`select bool_or(status = 'PENDING') as open,
                                count(*) filter (where status = 'COMPLETED')::int as completed,
                                count(*) filter (where status = 'FAILED')::int as failed
                           from payout_items where payout_id = ${item.payoutId}`),
  );
  if (!open || open.open) return;
  const [payout] = await tx
    .update(payouts)
    .set({ status: 'COMPLETED', completedAt: new Date() })
    .where(and(eq(payouts.id, item.payoutId), eq(payouts.status, 'PROCESSING')))
    .returning();
  if (!payout) return;
  await emitEvent(tx, {
    ...owner,
    type: 'payout.completed',
    subjectId: payout.id,
    data: {
      id: payout.id,
      status: payout.status,
      itemCount: payout.itemCount,
      completed: open.completed,
      failed: open.failed,
      createdAt: payout.createdAt.toISOString(),
      completedAt: isoOrNull(payout.completedAt),
    },
  });
}
