import { and, eq, sql } from 'drizzle-orm';
import { payoutItems, payouts, withdrawals } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { recordAudit } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { StepUpInput } from '@/lib/withdrawal-controls/schemas';
import type { OwnerSession } from '@/lib/withdrawal-controls/update-withdrawal-controls';
import { failWithdrawal } from '@/lib/withdrawals/finish-withdrawal';
import { AWAITING_APPROVAL } from '@/lib/withdrawals/pending-reasons';
import { releaseHeldWithdrawal } from '@/lib/withdrawals/release-held-withdrawal';
import { getPayout } from './get-payout';

/**
 * The owner's ONE decision on a payout held above the approval threshold: every held item released to its lane, or
 * every one rejected (FAILED, amount + fee back through the ledger, payout.item.failed), in one transaction with one
 * audit row. The payout row is locked first (as the items' final hook locks it), then its items' withdrawals: a
 * second decision finds nothing awaiting and is a 409, never a second refund.
 */
export async function decidePayoutApproval(db: Db, s: OwnerSession, id: string, decision: 'approve' | 'reject', input: unknown) {
  const v = StepUpInput.parse(input ?? {});
  await requireStepUp(db, s.user.id, v.totpCode);
  await db.transaction(async (tx) => {
    const [p] = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.id, String(id)), eq(payouts.tenantId, s.owner.tenantId), eq(payouts.mode, s.owner.mode)))
      .for('update');
    if (!p) throw new ApiError('not_found', 'Payout not found.');
    const held = await tx
      .select({ id: withdrawals.id, amount: withdrawals.amount, token: withdrawals.token })
      .from(withdrawals)
      .where(
        and(
          sql`${withdrawals.id} in (select ${payoutItems.withdrawalId} from ${payoutItems} where ${payoutItems.payoutId} = ${p.id})`,
          eq(withdrawals.status, 'PENDING'),
          eq(withdrawals.pendingReason, AWAITING_APPROVAL),
        ),
      )
      .orderBy(withdrawals.id)
      .for('update');
    if (held.length === 0) throw new ApiError('invalid_state', 'This payout is not awaiting approval.');
    const now = new Date();
    for (const w of held) {
      if (decision === 'approve') await releaseHeldWithdrawal(tx, w.id, now);
      else await failWithdrawal(tx, w.id, 'Payout rejected by the account owner.');
    }
    await recordAudit(
      tx,
      s.actor,
      {
        action: decision === 'approve' ? 'payout.approved' : 'payout.rejected',
        target: { type: 'payout', id: p.id },
        ...s.owner,
        before: { awaitingApproval: held.length },
        after: { decision, items: held.map((w) => w.id) },
      },
      now,
    );
  });
  return getPayout(db, s.owner, String(id));
}
