import { and, asc, eq } from 'drizzle-orm';
import { payoutItems, payouts, withdrawals } from '@/db/schema';
import { notFound } from '@/lib/api/errors';
import { isoOrNull } from '@/lib/api/schemas';
import type { Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { AWAITING_APPROVAL } from '@/lib/withdrawals/pending-reasons';
import { itemNetworkFees } from '@/lib/withdrawals/item-network-fees';
import type { PayoutView } from './schemas';

/** A payout of this tenant and mode with each item and its withdrawal; anything else is a 404. */
export async function getPayout(db: Db, owner: { tenantId: string; mode: Mode }, id: string): Promise<PayoutView> {
  const [payout] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.id, id), eq(payouts.tenantId, owner.tenantId), eq(payouts.mode, owner.mode)));
  if (!payout) throw notFound('Payout');
  const rows = await db
    .select({ item: payoutItems, w: withdrawals })
    .from(payoutItems)
    .innerJoin(withdrawals, eq(withdrawals.id, payoutItems.withdrawalId))
    .where(eq(payoutItems.payoutId, id))
    .orderBy(asc(payoutItems.position));
  const fees = await itemNetworkFees(
    db,
    rows.map(({ w }) => w.id),
  );
  const counts = { pending: 0, completed: 0, failed: 0 };
  const totals = new Map<string, { amount: Decimal; fee: Decimal }>();
  for (const { item, w } of rows) {
    counts[item.status === 'PENDING' ? 'pending' : item.status === 'COMPLETED' ? 'completed' : 'failed']++;
    const t = totals.get(w.token) ?? { amount: new Decimal(0), fee: new Decimal(0) };
    totals.set(w.token, { amount: t.amount.plus(w.amount), fee: t.fee.plus(w.feeAmount) });
  }
  return {
    id: payout.id,
    status: payout.status,
    itemCount: payout.itemCount,
    counts,
    awaitingApproval: rows.some(({ w }) => w.status === 'PENDING' && w.pendingReason === AWAITING_APPROVAL),
    totals: [...totals]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([token, t]) => ({
        token: token as PayoutView['totals'][number]['token'],
        amount: formatAmount(t.amount),
        feeAmount: formatAmount(t.fee),
      })),
    items: rows.map(({ item, w }) => ({
      position: item.position,
      reference: item.reference,
      status: item.status,
      withdrawalId: w.id,
      withdrawalStatus: w.status,
      chain: w.chain,
      token: w.token,
      destinationAddress: w.destinationAddress,
      amount: formatAmount(w.amount),
      feeAmount: formatAmount(w.feeAmount),
      networkFeeReserved: formatAmount(fees.get(w.id)?.reserved ?? 0),
      networkFee: item.networkFee === null ? null : formatAmount(item.networkFee),
      networkFeeNote: fees.get(w.id)?.note ?? null,
      netAmount: formatAmount(w.netAmount),
      txHash: w.txHash,
      pendingReason: w.pendingReason,
      failureReason: w.failureReason,
    })),
    createdAt: payout.createdAt.toISOString(),
    completedAt: isoOrNull(payout.completedAt),
  };
}
