import type { AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { controlled, LIMIT_USD_PER_UNIT } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { getWithdrawalControls } from '@/lib/withdrawal-controls/get-withdrawal-controls';
import type { PrepareWithdrawalControls } from '@/lib/withdrawals/create-withdrawal';
import type { PayoutOwner } from './prepare-payout-items';
import type { PayoutItemInputValue } from './schemas';

/**
 * The approval threshold of a batch is its total, not each item's: a key that splits 10,000 USD into 1,000 items of
 * 10 would otherwise never wait for the owner. Above it the whole batch is held as ONE approval
 * (decidePayoutApproval); the owner's own session is not held, as for a single withdrawal (controls bind keys).
 */
export async function batchHeld(db: Db, owner: PayoutOwner, actor: AuditActor | undefined, items: PayoutItemInputValue[]) {
  if (!controlled(actor)) return false;
  const { approvalThreshold } = await getWithdrawalControls(db, owner);
  if (approvalThreshold === null) return false;
  // Counted 1:1 in USD as the 24 h limit counts them; a malformed amount is the row's own refusal, not counted here.
  const total = items.reduce((sum, i) => {
    const ok = /^\d+(\.\d+)?$/.test(i.amount);
    return ok ? sum.plus(new Decimal(i.amount).times(LIMIT_USD_PER_UNIT[i.token])) : sum;
  }, new Decimal(0));
  return total.gt(approvalThreshold);
}

/** Each item's controls with the batch's hold in place of its own: every item waits, or none does. */
export const withBatchHold =
  (prepareControls: PrepareWithdrawalControls, hold: boolean): PrepareWithdrawalControls =>
  async (...args) => ({ ...(await prepareControls(...args)), hold });
