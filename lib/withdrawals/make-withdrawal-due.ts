import { and, eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';

/**
 * Makes a PENDING withdrawal due now, so the lane sends it on its next pass
 * (the console's "retry send"). Null when it is no longer PENDING: the lane
 * picked it up meanwhile.
 */
export async function makeWithdrawalDue(tx: Db, withdrawalId: string, now: Date): Promise<Withdrawal | null> {
  const [row] = await tx
    .update(withdrawals)
    .set({ nextAttemptAt: now, updatedAt: now })
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, 'PENDING')))
    .returning();
  return row ?? null;
}
