import { and, eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { broadcastTronTx, lookupTronTx, TronBroadcastError, type TronTxState } from '@/lib/chain/tron/broadcast';
import { isSafelyExpired } from '@/lib/chain/tron/expiry';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { completeWithdrawal, failWithdrawal } from './finish-withdrawal';
import type { LaneNetwork } from './lane-helpers';
import type { TronNetwork } from '@/lib/chain/network';
import { tronWaitReasons } from './pending-reasons';
import { recordedTronTx } from './tron-send';
import type { TrackOptions } from './track-sent-withdrawals';
import { markBroadcast, requeueExpired, setTrackReason, trackProcessing, type TrackOutcome } from './track-processing';

/**
 * Follows the PROCESSING withdrawals of a TRON hot wallet to a final state (docs/tron.md §5): COMPLETED once a
 * transaction of theirs is solidified with SUCCESS, FAILED (money back through the ledger) when it was
 * solidified with REVERT or OUT_OF_ENERGY. While none of their transactions is known, the stored bytes are
 * rebroadcast; a withdrawal goes back to the send queue for a new signature only when isSafelyExpired proves
 * its transaction can never be mined. A failed read decides nothing: the reason says so, the next pass asks again.
 */
export async function trackTronWithdrawals(db: Db, net: LaneNetwork<TronNetwork>, client: TronNodeClient, opts: TrackOptions = {}) {
  return trackProcessing(db, net, 'TRON', opts, (w, now) => trackOne(db, net, client, w, now));
}

async function trackOne(db: Db, net: LaneNetwork<TronNetwork>, client: TronNodeClient, w: Withdrawal, now: Date): Promise<TrackOutcome> {
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
      await setTrackReason(db, w, tronWaitReasons.mined(hash, state.info.blockNumber), now);
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
    await requeueExpired(db, w, tronWaitReasons.resent(w.txHash!, recorded.expiration), now, 'TRON');
    return null;
  }
  try {
    await broadcastTronTx(client, recorded);
    await setTrackReason(db, w, null, now);
    await markBroadcast(db, w, now);
  } catch (err) {
    if (!(err instanceof TronBroadcastError)) throw err;
    // Refused (expired on the node's head, or TaPoS): it can still not be re-signed until the solidified chain proves it unmined.
    await setTrackReason(db, w, tronWaitReasons.refused(err.code, w.txHash!, recorded.expiration), now);
  }
  return null;
}
