import { and, asc, eq } from 'drizzle-orm';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
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
import { chainWaitReasons, solanaWaitReasons } from './pending-reasons';
import { recordedSolanaTx } from './solana-send';
import type { TrackOptions } from './track-sent-withdrawals';

async function setReason(db: Db, w: Withdrawal, pendingReason: string | null, now: Date) {
  if (w.pendingReason === pendingReason) return;
  await db
    .update(withdrawals)
    .set({ pendingReason, updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)));
}

/**
 * Follows the PROCESSING withdrawals of a Solana hot wallet (docs/solana.md §6.2): COMPLETED once the stored
 * transaction is `finalized` without error, charged what it cost the gas wallet (fee, and the destination account's
 * rent when it created one) at the gas coin's price and given back the rest of its reserved network fee; FAILED
 * (money back) when it finalized with an error. While it has no status its exact stored bytes are re-sent; it goes
 * back to the send queue for a new signature only when judgeSentTransaction finds it safely expired. A failed read
 * decides nothing: the reason says so and the next pass asks again.
 */
export async function trackSolanaWithdrawals(db: Db, net: LaneNetwork<SolanaNetwork>, rpc: SolanaRpc, opts: TrackOptions = {}) {
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
      const outcome = await trackOne(db, net, rpc, w, now);
      if (outcome === 'completed') completed++;
      if (outcome === 'failed') failed++;
    } catch (err) {
      const message = String((err as Error).message ?? err).split('\n')[0]!;
      log.warn('Solana withdrawal tracking could not read the chain', { withdrawalId: w.id, error: message.slice(0, 300) });
      await setReason(db, w, chainWaitReasons.readFailed(message), now);
    }
  }
  return { completed, failed };
}

async function trackOne(db: Db, net: LaneNetwork<SolanaNetwork>, rpc: SolanaRpc, w: Withdrawal, now: Date) {
  const recorded = recordedSolanaTx(w);
  // Only the stored signature can land: every earlier one was found safely expired before it was replaced.
  const judged = await judgeSentTransaction(rpc, recorded);
  if (judged.state === 'landed') {
    if (judged.confirmationStatus !== 'finalized') {
      await setReason(db, w, solanaWaitReasons.landed(recorded.signature, judged.slot), now);
      if (w.broadcastAt === null) await db.update(withdrawals).set({ broadcastAt: now }).where(eq(withdrawals.id, w.id));
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
    await requeue(db, w, solanaWaitReasons.resent(recorded.signature, recorded.lastValidBlockHeight, judged.finalizedBlockHeight), now);
    return null;
  }
  try {
    await broadcastSolanaTransaction(rpc, recorded);
    await setReason(db, w, null, now);
    if (w.broadcastAt === null) await db.update(withdrawals).set({ broadcastAt: now }).where(eq(withdrawals.id, w.id));
  } catch (err) {
    if (!(err instanceof SolanaRpcError) || err.code === undefined) throw err;
    // Refused (BlockhashNotFound, a node behind): never re-signed on a refusal, only once the finalized height passed.
    const code = JSON.stringify((err.data as { err?: unknown } | undefined)?.err ?? err.code);
    await setReason(db, w, solanaWaitReasons.refused(code, recorded.signature, recorded.lastValidBlockHeight), now);
  }
  return null;
}

/** Back to the send queue for a new signature (the send path judges the destination and reads the balances again). */
async function requeue(db: Db, w: Withdrawal, reason: string, now: Date) {
  log.warn('Solana withdrawal re-queued: its transaction expired unlanded', { withdrawalId: w.id, signatures: [w.txHash, ...w.replacedTxHashes] });
  await db
    .update(withdrawals)
    .set({
      status: 'PENDING',
      signedTx: null,
      txHash: null,
      txExpiration: null,
      replacedTxHashes: [...w.replacedTxHashes, w.txHash!],
      pendingReason: reason,
      broadcastAt: null,
      nextAttemptAt: now,
      updatedAt: now,
    })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)));
}
