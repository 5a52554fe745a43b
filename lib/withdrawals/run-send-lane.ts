import { and, eq, sql } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { railOf } from '@/lib/chain/network';
import { failWithdrawal } from './finish-withdrawal';
import { stopScreened } from './stop-screened';
import type { LaneNetwork } from './lane-helpers';
import { dueWithdrawals } from './due-withdrawals';

export interface SendOptions {
  now?: Date;
  /** Wait before re-checking a withdrawal the hot wallet cannot fund yet. */
  retryDelayMs?: number;
  /** Tests: runs after the signed transaction is stored, before it is broadcast (a crash there). */
  beforeBroadcast?: (w: Withdrawal) => void | Promise<void>;
}

/** What a family's chain reads decided for one withdrawal: postpone it, fail it (money back), or sign with `signing`. */
export type SendDecision<S> = { kind: 'wait'; reason: string } | { kind: 'fail'; reason: string } | { kind: 'send'; signing: S };

/** The columns that record a signed transaction (the rest of the PROCESSING update is the lane's). */
export type RecordedTx = Pick<Withdrawal, 'nonce' | 'signedTx' | 'txHash' | 'gasPrice'> &
  Partial<Pick<Withdrawal, 'txExpiration' | 'refBlockNumber'>>;

/** One chain family's part of sending one withdrawal; the lane owns everything around it. */
export interface SendFamily<S> {
  /** Reads the chain for `w` (`amount` in the token's units on its rail `net`) and decides. */
  prepare(w: Withdrawal, net: LaneNetwork, amount: bigint): Promise<SendDecision<S>>;
  /**
   * A thrown error of `prepare` (or of applying its decision) as the detail of a "could not be read" wait: a
   * failed read is never an answer. Rethrows what it does not take for a failed read (the pass then ends).
   */
  unreadable(err: unknown): string;
  /** Inside the record transaction, the row locked and still PENDING: the signed transaction's columns, or null to record nothing. */
  record(tx: Db, locked: Withdrawal, w: Withdrawal, signing: S): Promise<RecordedTx | null>;
  /** Broadcasts what was recorded and stamps broadcastAt (a family decides what a failed broadcast does). */
  broadcast(stored: Withdrawal, signing: S): Promise<void>;
}

async function postpone(db: Db, w: Withdrawal, reason: string, now: Date, delayMs: number) {
  await db
    .update(withdrawals)
    .set({ pendingReason: reason, nextAttemptAt: new Date(now.getTime() + delayMs), updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PENDING')));
}

/**
 * A hot wallet lane's send step, either family (EVM: send-pending-withdrawals.ts, TRON: tron-send.ts): the due
 * PENDING withdrawals one at a time, each on its token's rail; the family's reads decide wait (postponed), fail
 * (failWithdrawal: FAILED, refund and event in one transaction) or send. A send is recorded (status PROCESSING,
 * the signed transaction, one more attempt) in one transaction with the row locked and still PENDING, and only
 * then broadcast, so a crash in between leaves exact bytes for tracking to rebroadcast. Returns how many were sent.
 */
export async function runSendLane<S>(db: Db, lane: LaneNetwork, family: SendFamily<S>, opts: SendOptions): Promise<number> {
  const now = opts.now ?? new Date();
  const delay = opts.retryDelayMs ?? 15_000;
  const due = await dueWithdrawals(db, lane, now);
  let sent = 0;
  for (const w of due) {
    // The withdrawal's token on this network: its contract and decimals. A token no longer enabled here waits (never another token).
    const net = railOf(lane, w.token);
    if (!net) {
      await postpone(db, w, `${w.token} is not enabled on ${lane.chain}; waiting.`, now, delay);
      continue;
    }
    const amount = parseUnits(w.netAmount, net.decimals);
    // Screened again right before signing (the list and the adapters): an address listed since it was queued is never
    // paid, and one no adapter could judge now is not signed now.
    const screened = await stopScreened(db, w, lane.chain);
    if (screened.kind === 'unscreened') await postpone(db, w, screened.reason, now, delay);
    if (screened.kind !== 'clean') continue;
    let signing: S;
    try {
      const decision = await family.prepare(w, net, amount);
      if (decision.kind === 'fail') {
        await failWithdrawal(db, w.id, decision.reason);
        continue;
      }
      if (decision.kind === 'wait') {
        await postpone(db, w, decision.reason, now, delay);
        continue;
      }
      signing = decision.signing;
    } catch (err) {
      await postpone(db, w, `Chain state could not be read (${family.unreadable(err).slice(0, 120)}); retrying.`, now, delay);
      continue;
    }
    const stored = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(withdrawals).where(eq(withdrawals.id, w.id)).for('update');
      // Another pass sent it meanwhile, or it was failed or cancelled: nothing is recorded nor sent.
      if (!locked || locked.status !== 'PENDING') return null;
      const recorded = await family.record(tx, locked, w, signing);
      if (!recorded) return null;
      const [row] = await tx
        .update(withdrawals)
        .set({ ...recorded, status: 'PROCESSING', pendingReason: null, sendAttempts: sql`${withdrawals.sendAttempts} + 1`, updatedAt: now })
        .where(eq(withdrawals.id, w.id))
        .returning();
      return row!;
    });
    if (!stored) continue;
    await opts.beforeBroadcast?.(stored);
    await family.broadcast(stored, signing);
    sent++;
  }
  return sent;
}
