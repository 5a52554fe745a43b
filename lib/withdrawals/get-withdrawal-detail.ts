import type { Db } from '@/lib/db';
import { formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { getWithdrawalOrThrow } from './get-withdrawal-or-throw';
import { finalNetworkFee, itemNetworkFees } from './item-network-fees';
import type { WithdrawalDetailView } from './schemas';
import { withdrawalView } from './view';

/**
 * One withdrawal of this tenant and mode (anything else is a 404) with its network fee as the ledger has it: the
 * reserved flat fee, what came back of it and the final charge, so a batched withdrawal does not show only the fee
 * it reserved (feeAmount stays what was debited, as the request was quoted).
 */
export async function getWithdrawalDetail(db: Db, where: { id: string; tenantId: string; mode: Mode }): Promise<WithdrawalDetailView> {
  const w = await getWithdrawalOrThrow(db, where);
  const fees = (await itemNetworkFees(db, [w.id])).get(w.id)!;
  const ended = w.status === 'COMPLETED' || w.status === 'FAILED' ? w.status : null;
  return {
    ...withdrawalView(w),
    networkFeeReserved: formatAmount(fees.reserved.toFixed()),
    networkFee: ended ? formatAmount(finalNetworkFee(ended, fees).toFixed()) : null,
    networkFeeRefunded: formatAmount(fees.refunded.toFixed()),
  };
}
