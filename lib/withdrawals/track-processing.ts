import { and, asc, eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { LaneNetwork } from './lane-helpers';
import { chainWaitReasons } from './pending-reasons';
import type { TrackOptions } from './track-sent-withdrawals';

/** What one pass over a withdrawal decided: a final state, or nothing yet. */
export type TrackOutcome = 'completed' | 'failed' | null;

/**
 * One tracking pass over a network's PROCESSING withdrawals, oldest first, for the families that follow one stored
 * transaction per withdrawal (TRON, Solana). A failed read decides nothing: the withdrawal's reason says so and the
 * next pass asks again; the other withdrawals are still tracked.
 */
export async function trackProcessing(
  db: Db,
  net: LaneNetwork,
  family: string,
  opts: TrackOptions,
  trackOne: (w: Withdrawal, now: Date) => Promise<TrackOutcome>,
) {
  const now = opts.now ?? new Date();
  const open = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.mode, net.mode), eq(withdrawals.chainId, net.chainId), eq(withdrawals.status, 'PROCESSING')))
    .orderBy(asc(withdrawals.createdAt));
  let completed = 0;
  let failed = 0;
  for (const w of open) {
    try {
      const outcome = await trackOne(w, now);
      if (outcome === 'completed') completed++;
      if (outcome === 'failed') failed++;
    } catch (err) {
      const message = String((err as Error).message ?? err).split('\n')[0]!;
      log.warn(`${family} withdrawal tracking could not read the chain`, { withdrawalId: w.id, error: message.slice(0, 300) });
      await setTrackReason(db, w, chainWaitReasons.readFailed(message), now);
    }
  }
  return { completed, failed };
}

/** Sets the reason shown while the withdrawal waits, only over the transaction this pass looked at. */
export async function setTrackReason(db: Db, w: Withdrawal, pendingReason: string | null, now: Date) {
  if (w.pendingReason === pendingReason) return;
  await db
    .update(withdrawals)
    .set({ pendingReason, updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)));
}

/** Records the first time the stored transaction was seen sent or landed. */
export async function markBroadcast(db: Db, w: Withdrawal, now: Date) {
  if (w.broadcastAt === null) await db.update(withdrawals).set({ broadcastAt: now }).where(eq(withdrawals.id, w.id));
}

/**
 * Back to the send queue for a new signature, once the family proved the stored transaction can never land (the send
 * path judges the destination and reads the balances again). Only over the transaction this pass proved expired.
 */
export async function requeueExpired(db: Db, w: Withdrawal, reason: string, now: Date, family: string) {
  log.warn(`${family} withdrawal re-queued: its transaction expired unlanded`, { withdrawalId: w.id, hashes: [w.txHash, ...w.replacedTxHashes] });
  await db
    .update(withdrawals)
    .set({
      status: 'PENDING',
      signedTx: null,
      txHash: null,
      txExpiration: null,
      refBlockNumber: null,
      replacedTxHashes: [...w.replacedTxHashes, w.txHash!],
      pendingReason: reason,
      broadcastAt: null,
      nextAttemptAt: now,
      updatedAt: now,
    })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)));
}
