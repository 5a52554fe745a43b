import type { Db } from '@/lib/db';
import { acquireLease, completeLease } from '@/lib/db/lease';
import type { LaneNetwork } from './lane-helpers';
import { processWithdrawals } from './process-withdrawals';

/**
 * The hot wallet lane's lease, and the name of its scheduled job (lib/jobs/registry.ts):
 * whoever holds it is the wallet's only sender, so nonces are reserved in order.
 */
export const WITHDRAWAL_LANE_LEASE = 'process-withdrawals';

/**
 * One lane pass now, outside the schedule (the exchange's send-now path), under
 * the lane's own lease; false when the scheduled lane holds it. The lease is freed
 * at once after, so the scheduled lane may run right after.
 */
export async function runLanePassNow(db: Db, net: LaneNetwork, owner: string): Promise<boolean> {
  if (!(await acquireLease(db, WITHDRAWAL_LANE_LEASE, owner, 60_000))) return false;
  try {
    await processWithdrawals(db, net);
  } finally {
    await completeLease(db, WITHDRAWAL_LANE_LEASE, owner, 0).catch(() => {});
  }
  return true;
}
