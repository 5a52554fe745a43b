import { eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';

/**
 * Releases a withdrawal held for the owner's approval to the sending lane: no
 * pending reason, due now. The caller (decideWithdrawalApproval) has locked the
 * row and checked it is PENDING and awaiting approval, in the same transaction.
 */
export async function releaseHeldWithdrawal(tx: Db, withdrawalId: string, now: Date): Promise<Withdrawal> {
  const [row] = await tx
    .update(withdrawals)
    .set({ pendingReason: null, nextAttemptAt: now, updatedAt: now })
    .where(eq(withdrawals.id, withdrawalId))
    .returning();
  return row!;
}
