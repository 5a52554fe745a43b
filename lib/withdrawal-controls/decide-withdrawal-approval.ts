import { and, eq } from 'drizzle-orm';
import { payoutItems, withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { recordAudit } from '@/lib/audit/record-audit';
import { failWithdrawal } from '@/lib/withdrawals/finish-withdrawal';
import { AWAITING_APPROVAL } from '@/lib/withdrawals/pending-reasons';
import { releaseHeldWithdrawal } from '@/lib/withdrawals/release-held-withdrawal';
import { withdrawalView } from '@/lib/withdrawals/view';
import { StepUpInput } from './schemas';
import type { OwnerSession } from './update-withdrawal-controls';

/**
 * The owner approves (releases it to the sending lane) or rejects (FAILED,
 * amount + fee refunded through the ledger, withdrawal.failed) a withdrawal
 * held for approval; one transaction with its audit row. The row lock and the
 * awaiting_approval guard make a second decision a 409, never a second refund.
 */
export async function decideWithdrawalApproval(db: Db, s: OwnerSession, id: string, decision: 'approve' | 'reject', input: unknown) {
  const v = StepUpInput.parse(input ?? {});
  await requireStepUp(db, s.user.id, v.totpCode);
  return db.transaction(async (tx) => {
    const [w] = await tx
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.id, String(id)), eq(withdrawals.tenantId, s.owner.tenantId), eq(withdrawals.mode, s.owner.mode)))
      .for('update');
    if (!w) throw new ApiError('not_found', 'Withdrawal not found.');
    if (w.status !== 'PENDING' || w.pendingReason !== AWAITING_APPROVAL)
      throw new ApiError('invalid_state', 'This withdrawal is not awaiting approval.');
    // A batch is held and decided as ONE approval (lib/payouts/decide-payout-approval.ts), never item by item.
    const [item] = await tx.select({ payoutId: payoutItems.payoutId }).from(payoutItems).where(eq(payoutItems.withdrawalId, w.id));
    if (item) throw new ApiError('invalid_state', `This withdrawal is an item of payout ${item.payoutId}: approve or reject the payout as a whole.`);
    const now = new Date();
    let row = w;
    if (decision === 'approve') {
      row = await releaseHeldWithdrawal(tx, w.id, now);
    } else {
      row = (await failWithdrawal(tx, w.id, 'Rejected by the account owner.'))!;
    }
    const view = withdrawalView(row!);
    await recordAudit(
      tx,
      s.actor,
      {
        action: decision === 'approve' ? 'withdrawal.approved' : 'withdrawal.rejected',
        target: { type: 'withdrawal', id: w.id },
        ...s.owner,
        before: { status: w.status, pendingReason: w.pendingReason },
        after: {
          status: view.status,
          pendingReason: view.pendingReason,
          amount: view.amount,
          feeAmount: view.feeAmount,
          destinationAddress: view.destinationAddress,
        },
      },
      now,
    );
    return view;
  });
}
