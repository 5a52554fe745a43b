import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { LaneNetwork } from './lane-helpers';

/**
 * The next withdrawals a lane sends, oldest first (either family's lane). By mode and chain: a lane never sends
 * another mode's withdrawals, whatever chain ids are configured. Withdrawals held for the owner's approval wait
 * outside the lane.
 */
export async function dueWithdrawals(db: Db, lane: Pick<LaneNetwork, 'mode' | 'chainId'>, now: Date, limit = 50): Promise<Withdrawal[]> {
  return db
    .select()
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.mode, lane.mode),
        eq(withdrawals.chainId, lane.chainId),
        eq(withdrawals.status, 'PENDING'),
        lte(withdrawals.nextAttemptAt, now),
        sql`${withdrawals.pendingReason} is distinct from 'awaiting_approval'`,
      ),
    )
    .orderBy(asc(withdrawals.createdAt))
    .limit(limit);
}
