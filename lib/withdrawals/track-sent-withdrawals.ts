import { railOf, type EvmNetwork } from '@/lib/chain/network';
import { and, asc, eq } from 'drizzle-orm';
import { keccak256, type Hex, type PublicClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { broadcastRaw } from '@/lib/chain/broadcast-raw';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { resultOf, rpcBatch, RpcReadError } from '@/lib/chain/rpc-batch';
import { transferDataOf, type LaneNetwork } from './lane-helpers';
import { completeWithdrawal, failWithdrawal } from './finish-withdrawal';
import { chainWaitReasons } from './pending-reasons';
import { recordBatchGas, replaceStuckBatch } from './track-batches';

export interface TrackOptions {
  now?: Date;
  /** A transaction unmined this long is replaced under the same nonce with a higher gas price. */
  stuckAfterMs?: number;
}

interface Snapshot {
  head: number;
  /** Transactions of the hot wallet mined by `head` (the next nonce at "latest"). */
  minedCount: number;
  receipt: { hash: string; blockNumber: number; success: boolean; gasUsed: bigint; gasPrice: bigint } | null;
}

/**
 * One node's view in one batch: its head, the hot wallet's mined count and the
 * receipts of every hash the withdrawal ever had. Read together, a missing
 * receipt means "not in any block up to `head`" on that node, never "the
 * other node has not seen it yet". Any failed call throws RpcReadError.
 */
async function snapshot(rpcUrl: string, from: string, hashes: string[]): Promise<Snapshot> {
  const out = await rpcBatch(rpcUrl, [
    { method: 'eth_blockNumber', params: [] },
    { method: 'eth_getTransactionCount', params: [from, 'latest'] },
    ...hashes.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })),
  ]);
  const head = Number(resultOf(out[0]!, 'eth_blockNumber'));
  const minedCount = Number(resultOf(out[1]!, 'eth_getTransactionCount'));
  let receipt: Snapshot['receipt'] = null;
  out.slice(2).forEach((o, i) => {
    const r = resultOf(o, 'eth_getTransactionReceipt') as {
      blockNumber?: string;
      status?: string;
      gasUsed?: string;
      effectiveGasPrice?: string;
    } | null;
    if (r?.blockNumber && !receipt) {
      const gas = (v: string | undefined) => (v && /^0x[0-9a-f]+$/i.test(v) ? BigInt(v) : 0n);
      receipt = {
        hash: hashes[i]!,
        blockNumber: Number(r.blockNumber),
        success: r.status === '0x1',
        gasUsed: gas(r.gasUsed),
        gasPrice: gas(r.effectiveGasPrice),
      };
    }
  });
  if (!Number.isFinite(head) || !Number.isFinite(minedCount)) throw new RpcReadError('malformed head or transaction count');
  return { head, minedCount, receipt };
}

async function setReason(db: Db, w: Withdrawal, set: { pendingReason: string | null; nonceUsedAtBlock?: number | null }, now: Date) {
  if (w.pendingReason === set.pendingReason && (set.nonceUsedAtBlock === undefined || set.nonceUsedAtBlock === w.nonceUsedAtBlock)) return;
  await db
    .update(withdrawals)
    .set({ ...set, updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING')));
}

/**
 * Follows PROCESSING withdrawals of one hot wallet to a final state:
 * COMPLETED once a receipt has the network's confirmations, FAILED (with the
 * refund) when it reverted; re-broadcasts the stored bytes when the node lost
 * them, and replaces a stuck transaction under the same nonce with a higher
 * gas price (any of the signed versions may be the one mined).
 *
 * A read that fails is no answer: the withdrawal keeps its transaction and
 * shows why it waits. It is re-signed under a new nonce only when a node whose
 * head is `confirmations` blocks past the block where its nonce was first
 * seen used still has no receipt for any hash it ever had.
 */
export async function trackSentWithdrawals(
  db: Db,
  net: LaneNetwork<EvmNetwork>,
  client: PublicClient,
  account: PrivateKeyAccount,
  opts: TrackOptions = {},
) {
  const now = opts.now ?? new Date();
  const open = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.mode, net.mode), eq(withdrawals.chainId, net.chainId), eq(withdrawals.status, 'PROCESSING')))
    .orderBy(asc(withdrawals.nonce));
  let completed = 0;
  let failed = 0;
  // One read per transaction per pass: a batch's items share their hashes, so they share one snapshot.
  const snaps = new Map<string, Promise<Snapshot>>();
  const read = (hashes: string[]) => {
    const key = hashes.join(',');
    if (!snaps.has(key)) snaps.set(key, snapshot(net.rpcUrl, account.address, hashes));
    return snaps.get(key)!;
  };
  for (const w of open) {
    try {
      const outcome = await trackOne(db, net, client, account, w, now, opts, read);
      if (outcome === 'completed') completed++;
      if (outcome === 'failed') failed++;
    } catch (err) {
      // Nothing was decided from this read; the next pass asks again.
      const message = String((err as Error).message ?? err).split('\n')[0]!;
      log.warn('withdrawal tracking could not read the chain', { withdrawalId: w.id, error: message.slice(0, 300) });
      await setReason(db, w, { pendingReason: chainWaitReasons.readFailed(err instanceof RpcReadError ? message : `RPC error: ${message}`) }, now);
    }
  }
  return { completed, failed };
}

async function trackOne(
  db: Db,
  net: LaneNetwork<EvmNetwork>,
  client: PublicClient,
  account: PrivateKeyAccount,
  w: Withdrawal,
  now: Date,
  opts: TrackOptions,
  read: (hashes: string[]) => Promise<Snapshot>,
) {
  const hashes = [w.txHash!, ...w.replacedTxHashes];
  const snap = await read(hashes);
  if (snap.receipt) {
    const r = snap.receipt;
    if (r.hash !== w.txHash) {
      // An earlier version was mined. The newer one stays among the hashes: a reorg may yet mine it instead, and a
      // hash the withdrawal no longer knows would make it look unsent (and be paid again under a new nonce).
      await db
        .update(withdrawals)
        .set({ txHash: r.hash, replacedTxHashes: [...w.replacedTxHashes.filter((h) => h !== r.hash), w.txHash!] })
        .where(and(eq(withdrawals.id, w.id), eq(withdrawals.txHash, w.txHash!)));
    }
    const spent = () =>
      w.batchId
        ? recordBatchGas(db, net, w.batchId, r)
        : recordGasSpend(db, {
            mode: net.mode,
            chainId: net.chainId,
            kind: 'withdrawal',
            referenceId: w.id,
            txHash: r.hash,
            gasUsed: r.gasUsed,
            gasPrice: r.gasPrice,
          });
    if (!r.success) {
      await spent();
      return (await failWithdrawal(db, w.id, `Transaction ${r.hash} reverted on chain.`)) ? 'failed' : null;
    }
    const confirmations = snap.head - r.blockNumber + 1;
    if (confirmations >= net.confirmations) await spent();
    if (confirmations >= net.confirmations && (await completeWithdrawal(db, w.id))) return 'completed';
    await setReason(db, w, { pendingReason: null, nonceUsedAtBlock: null }, now);
    return null;
  }
  if (w.nonce !== null && w.nonce < snap.minedCount) {
    // The nonce is used and this node has none of our transactions up to its head.
    const seenAt = w.nonceUsedAtBlock ?? snap.head;
    const until = seenAt + net.confirmations - 1;
    if (w.nonceUsedAtBlock !== null && snap.head >= until) {
      await requeue(db, w, chainWaitReasons.resent(w.nonce, hashes.length, snap.head), now);
      return null;
    }
    await setReason(db, w, { pendingReason: chainWaitReasons.nonceUsed(w.nonce, seenAt, until), nonceUsedAtBlock: seenAt }, now);
    return null;
  }
  if (w.nonceUsedAtBlock !== null) {
    // Another node saw the nonce used; this one has not reached that block yet.
    if (snap.head < w.nonceUsedAtBlock) {
      await setReason(db, w, { pendingReason: chainWaitReasons.nodeBehind(snap.head, w.nonceUsedAtBlock) }, now);
      return null;
    }
    // A node past that block sees it unused again (the using block was reorganised away): start over.
    await setReason(db, w, { pendingReason: null, nonceUsedAtBlock: null }, now);
  }
  const stuck = w.broadcastAt !== null && now.getTime() - w.broadcastAt.getTime() > (opts.stuckAfterMs ?? 60_000);
  if (stuck && w.batchId) await replaceStuckBatch(db, net, client, account, w, now);
  else if (stuck) await replaceStuck(db, net, client, account, w, now);
  else await broadcastRaw(client, w.signedTx as Hex);
  if (w.broadcastAt === null) await db.update(withdrawals).set({ broadcastAt: now }).where(eq(withdrawals.id, w.id));
  return null;
}

/** Back to the send queue for a new nonce; every hash so far is kept, so a late receipt of any of them still counts. */
async function requeue(db: Db, w: Withdrawal, reason: string, now: Date) {
  log.warn('withdrawal re-queued: its nonce was used by another transaction', {
    withdrawalId: w.id,
    nonce: w.nonce,
    hashes: [w.txHash, ...w.replacedTxHashes],
  });
  await db
    .update(withdrawals)
    .set({
      status: 'PENDING',
      nonce: null,
      signedTx: null,
      txHash: null,
      replacedTxHashes: [...w.replacedTxHashes, w.txHash!],
      // A batch item is batched again (its old batch keeps its row); every hash it had stays above.
      batchId: null,
      nonceUsedAtBlock: null,
      pendingReason: reason,
      broadcastAt: null,
      nextAttemptAt: now,
      updatedAt: now,
    })
    // Only if no other pass has signed a newer version meanwhile (that one may be the transaction mined).
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)));
}

async function replaceStuck(db: Db, lane: LaneNetwork<EvmNetwork>, client: PublicClient, account: PrivateKeyAccount, w: Withdrawal, now: Date) {
  // Re-signed for the withdrawal's own token contract only; a token no longer enabled is left to its first transaction.
  const net = railOf(lane, w.token);
  if (!net) return;
  const market = await client.getGasPrice();
  const bumped = (w.gasPrice! * 125n) / 100n;
  const gasPrice = bumped > market ? bumped : market;
  const signed = await account.signTransaction({
    type: 'legacy',
    chainId: net.chainId,
    nonce: w.nonce!,
    to: net.tokenAddress,
    data: transferDataOf(w, net),
    gas: 100_000n,
    gasPrice,
  });
  // Only over the transaction this pass read: a second pass replacing it at the same time (a run past its lease
  // beside the next) would otherwise overwrite the other's hash, and if that one were mined the withdrawal would
  // look unsent and be paid again under a new nonce. The pass that loses the race broadcasts nothing.
  const [replaced] = await db
    .update(withdrawals)
    .set({
      signedTx: signed,
      txHash: keccak256(signed),
      gasPrice,
      replacedTxHashes: [...w.replacedTxHashes, w.txHash!],
      broadcastAt: now,
      updatedAt: now,
    })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)))
    .returning({ id: withdrawals.id });
  if (replaced) await broadcastRaw(client, signed);
}
