import type { Withdrawal } from '@/db/schema';
import { isoOrNull } from '@/lib/api/schemas';
import { formatAmount } from '@/lib/money';
import type { WithdrawalView } from './schemas';
import type { WithdrawalEventDataView } from '@/lib/events/payloads';

export function withdrawalView(w: Withdrawal): WithdrawalView {
  return {
    id: w.id,
    amount: formatAmount(w.amount),
    feeAmount: formatAmount(w.feeAmount),
    netAmount: formatAmount(w.netAmount),
    status: w.status,
    destinationAddress: w.destinationAddress,
    chain: w.chain,
    token: w.token,
    txHash: w.txHash,
    failureReason: w.failureReason,
    pendingReason: w.pendingReason,
    postBackUrl: w.postBackUrl,
    ...(w.metadata ? { metadata: w.metadata } : {}),
    createdAt: w.createdAt.toISOString(),
    completedAt: isoOrNull(w.confirmedAt),
  };
}

/** Data of withdrawal.* events: the withdrawal record. */
export function withdrawalEventData(w: Withdrawal): WithdrawalEventDataView {
  const v = withdrawalView(w);
  return {
    id: v.id,
    amount: v.amount,
    feeAmount: v.feeAmount,
    netAmount: v.netAmount,
    status: v.status,
    destinationAddress: v.destinationAddress,
    chain: v.chain,
    token: v.token,
    txHash: v.txHash,
    createdAt: v.createdAt,
    failureReason: v.failureReason,
    ...(v.metadata ? { metadata: v.metadata } : {}),
  };
}
