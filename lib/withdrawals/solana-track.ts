import type { Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { SolanaNetwork } from '@/lib/chain/network';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { broadcastSolanaTransaction } from '@/lib/chain/solana/broadcast-transaction';
import { judgeSentTransaction } from '@/lib/chain/solana/judge-sent-transaction';
import { readLandedCost } from '@/lib/chain/solana/read-landed-cost';
import { SolanaRpcError, type SolanaRpc } from '@/lib/chain/solana/rpc';
import { CHAIN_SPECS, gasCoinOf } from '@/lib/config/rails';
import { batchShare } from './batch-share';
import { completeWithdrawal, failWithdrawal } from './finish-withdrawal';
import type { LaneNetwork } from './lane-helpers';
import { solanaWaitReasons } from './pending-reasons';
import { recordedSolanaTx } from './solana-send';
import type { TrackOptions } from './track-sent-withdrawals';
import { markBroadcast, requeueExpired, setTrackReason, trackProcessing, type TrackOutcome } from './track-processing';

/**
 * Follows the PROCESSING withdrawals of a Solana hot wallet (docs/solana.md §6.2): COMPLETED once the stored
 * transaction is `finalized` without error, charged what it cost the gas wallet (fee, and the destination account's
 * rent when it created one) at the gas coin's price and given back the rest of its reserved network fee; FAILED
 * (money back) when it finalized with an error. While it has no status its exact stored bytes are re-sent; it goes
 * back to the send queue for a new signature only when judgeSentTransaction finds it safely expired. A failed read
 * decides nothing: the reason says so and the next pass asks again.
 */
export async function trackSolanaWithdrawals(db: Db, net: LaneNetwork<SolanaNetwork>, rpc: SolanaRpc, opts: TrackOptions = {}) {
  return trackProcessing(db, net, 'Solana', opts, (w, now) => trackOne(db, net, rpc, w, now));
}

async function trackOne(db: Db, net: LaneNetwork<SolanaNetwork>, rpc: SolanaRpc, w: Withdrawal, now: Date): Promise<TrackOutcome> {
  const recorded = recordedSolanaTx(w);
  // Only the stored signature can land: every earlier one was found safely expired before it was replaced.
  const judged = await judgeSentTransaction(rpc, recorded);
  if (judged.state === 'landed') {
    if (judged.confirmationStatus !== 'finalized') {
      await setTrackReason(db, w, solanaWaitReasons.landed(recorded.signature, judged.slot), now);
      await markBroadcast(db, w, now);
      return null;
    }
    const cost = await readLandedCost(rpc, recorded.signature);
    await recordGasSpend(db, {
      mode: net.mode,
      chainId: net.chainId,
      kind: 'withdrawal',
      referenceId: w.id,
      txHash: recorded.signature,
      gasUsed: 0n,
      cost: cost.lamports,
    });
    if (cost.err !== null)
      return (await failWithdrawal(db, w.id, `Transaction ${recorded.signature} failed on chain (${JSON.stringify(cost.err)}).`)) ? 'failed' : null;
    const priced = batchShare({
      costWei: cost.lamports,
      itemCount: 1,
      gasCoinUsd: net.gasCoinUsd,
      nativeDecimals: CHAIN_SPECS[net.chain].nativeDecimals,
      setting: `${net.mode.toUpperCase()}_${net.chain}`,
      coin: gasCoinOf(net.chain),
    });
    return (await completeWithdrawal(db, w.id, priced.share ? { networkCost: priced.share } : {})) ? 'completed' : null;
  }
  if (judged.state === 'safely_expired') {
    await requeueExpired(
      db,
      w,
      solanaWaitReasons.resent(recorded.signature, recorded.lastValidBlockHeight, judged.finalizedBlockHeight),
      now,
      'Solana',
    );
    return null;
  }
  try {
    await broadcastSolanaTransaction(rpc, recorded);
    await setTrackReason(db, w, null, now);
    await markBroadcast(db, w, now);
  } catch (err) {
    if (!(err instanceof SolanaRpcError) || err.code === undefined) throw err;
    // Refused (BlockhashNotFound, a node behind): never re-signed on a refusal, only once the finalized height passed.
    const code = JSON.stringify((err.data as { err?: unknown } | undefined)?.err ?? err.code);
    await setTrackReason(db, w, solanaWaitReasons.refused(code, recorded.signature, recorded.lastValidBlockHeight), now);
  }
  return null;
}
