import { and, asc, eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { broadcastTronTx, lookupTronTx, TronBroadcastError, type TronTxState } from '@/lib/chain/tron/broadcast';
import { isSafelyExpired } from '@/lib/chain/tron/expiry';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { completeWithdrawal, failWithdrawal } from './finish-withdrawal';
import type { LaneNetwork } from './lane-helpers';
import type { TronNetwork } from '@/lib/chain/network';
import { chainWaitReasons, tronWaitReasons } from './pending-reasons';
import { recordedTronTx } from './tron-send';
import type { TrackOptions } from './track-sent-withdrawals';

async function setReason(db: Db, w: Withdrawal, pendingReason: string | null, now: Date) {
  if (w.pendingReason === pendingReason) return;
  await db
    .update(withdrawals)
    .set({ pendingReason, updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)));
}

/**
 * Follows the PROCESSING withdrawals of a TRON hot wallet to a final state (docs/tron.md §5): COMPLETED once a
 * transaction of theirs is solidified with SUCCESS, FAILED (money back through the ledger) when it was
 * solidified with REVERT or OUT_OF_ENERGY. While none of their transactions is known, the stored bytes are
 * rebroadcast; a withdrawal goes back to the send queue for a new signature only when isSafelyExpired proves
 * its transaction can never be mined. A failed read decides nothing: the reason says so, the next pass asks again.
 */
export async function trackTronWithdrawals(db: Db, net: LaneNetwork<TronNetwork>, client: TronNodeClient, opts: TrackOptions = {}) {
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
      const outcome = await trackOne(db, net, client, w, now);
      if (outcome === 'completed') completed++;
      if (outcome === 'failed') failed++;
    } catch (err) {
      const message = String((err as Error).message ?? err).split('\n')[0]!;
      log.warn('TRON withdrawal tracking could not read the chain', { withdrawalId: w.id, error: message.slice(0, 300) });
      await setReason(db, w, chainWaitReasons.readFailed(message), now);
    }
  }
  return { completed, failed };
}

async function trackOne(db: Db, net: LaneNetwork<TronNetwork>, client: TronNodeClient, w: Withdrawal, now: Date) {
  const hashes = [w.txHash!, ...w.replacedTxHashes];
  // Every signature this withdrawal ever had: whichever one landed is the payment (at most one can: the others
  // were proven expired unmined before the next was made).
  let found: { hash: string; state: Exclude<TronTxState, { state: 'unknown' }> } | null = null;
  for (const hash of hashes) {
    const state = await lookupTronTx(client, hash);
    if (state.state !== 'unknown' && (!found || state.state === 'solidified')) found = { hash, state };
  }
  if (found) {
    const { hash, state } = found;
    if (state.state === 'mined') {
      await setReason(db, w, tronWaitReasons.mined(hash, state.info.blockNumber), now);
      return null;
    }
    if (hash !== w.txHash) {
      await db
        .update(withdrawals)
        .set({ txHash: hash, replacedTxHashes: [...w.replacedTxHashes.filter((h) => h !== hash), w.txHash!] })
        .where(and(eq(withdrawals.id, w.id), eq(withdrawals.txHash, w.txHash!)));
    }
    // Burned TRX (energy and bandwidth) is spent whether or not the call succeeded: the console sets it against fees.
    // In sun, TRX's own base unit, as the sweeps record it (gas_spend.cost_wei is the gas coin's base unit).
    await recordGasSpend(db, {
      mode: net.mode,
      chainId: net.chainId,
      kind: 'withdrawal',
      referenceId: w.id,
      txHash: hash,
      gasUsed: BigInt(state.info.energyTotal),
      cost: state.info.fee,
    });
    if (!state.info.ok) return (await failWithdrawal(db, w.id, `Transaction ${hash} failed on chain (${state.info.contractRet}).`)) ? 'failed' : null;
    return (await completeWithdrawal(db, w.id)) ? 'completed' : null;
  }
  const recorded = recordedTronTx(w);
  if (await isSafelyExpired(recorded, client)) {
    await requeue(db, w, tronWaitReasons.resent(w.txHash!, recorded.expiration), now);
    return null;
  }
  try {
    await broadcastTronTx(client, recorded);
    await setReason(db, w, null, now);
    if (w.broadcastAt === null) await db.update(withdrawals).set({ broadcastAt: now }).where(eq(withdrawals.id, w.id));
  } catch (err) {
    if (!(err instanceof TronBroadcastError)) throw err;
    // Refused (expired on the node's head, or TaPoS): it can still not be re-signed until the solidified chain proves it unmined.
    await setReason(db, w, tronWaitReasons.refused(err.code, w.txHash!, recorded.expiration), now);
  }
  return null;
}

/** Back to the send queue for a new signature (the send path re-reads the blacklist, balances and estimate). */
async function requeue(db: Db, w: Withdrawal, reason: string, now: Date) {
  log.warn('TRON withdrawal re-queued: its transaction expired unmined', { withdrawalId: w.id, hashes: [w.txHash, ...w.replacedTxHashes] });
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
    // Only over the transaction this pass proved expired.
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)));
}
