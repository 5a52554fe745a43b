import { and, asc, eq } from 'drizzle-orm';
import { keccak256, type Hex, type PublicClient, type TransactionReceipt } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { broadcastRaw } from '@/lib/chain/broadcast-raw';
import { transferDataOf, type LaneNetwork } from './lane-helpers';
import { completeWithdrawal, failWithdrawal } from './finish-withdrawal';

export interface TrackOptions {
  now?: Date;
  /** A transaction unmined this long is replaced under the same nonce with a higher gas price. */
  stuckAfterMs?: number;
}

async function findReceipt(client: PublicClient, hashes: string[]): Promise<TransactionReceipt | null> {
  for (const hash of hashes) {
    const receipt = await client.getTransactionReceipt({ hash: hash as Hex }).catch(() => null);
    if (receipt) return receipt;
  }
  return null;
}

/**
 * Follows PROCESSING withdrawals of one hot wallet to a final state:
 * COMPLETED once the receipt has the network's confirmations, FAILED (with the
 * refund) when it reverted; re-broadcasts the stored bytes when the node lost
 * them, and replaces a stuck transaction under the same nonce with a higher
 * gas price (any of the signed versions may be the one mined).
 */
export async function trackSentWithdrawals(db: Db, net: LaneNetwork, client: PublicClient, account: PrivateKeyAccount, opts: TrackOptions = {}) {
  const now = opts.now ?? new Date();
  const open = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.chainId, net.chainId), eq(withdrawals.status, 'PROCESSING')))
    .orderBy(asc(withdrawals.nonce));
  if (open.length === 0) return { completed: 0, failed: 0 };
  const head = await client.getBlockNumber();
  const minedCount = await client.getTransactionCount({ address: account.address, blockTag: 'latest' });
  let completed = 0;
  let failed = 0;
  for (const w of open) {
    const hashes = [w.txHash!, ...w.replacedTxHashes];
    const receipt = await findReceipt(client, hashes);
    if (receipt) {
      if (receipt.transactionHash !== w.txHash) {
        await db.update(withdrawals).set({ txHash: receipt.transactionHash }).where(eq(withdrawals.id, w.id));
      }
      if (receipt.status !== 'success') {
        if (await failWithdrawal(db, w.id, `Transaction ${receipt.transactionHash} reverted on chain.`)) failed++;
        continue;
      }
      const confirmations = Number(head - receipt.blockNumber) + 1;
      if (confirmations >= net.confirmations && (await completeWithdrawal(db, w.id))) completed++;
      continue;
    }
    if (w.nonce !== null && w.nonce < minedCount) {
      // The nonce was consumed by a transaction that is none of ours: ours can never be mined, so send again.
      await requeue(db, w, now);
      continue;
    }
    const stuck = w.broadcastAt !== null && now.getTime() - w.broadcastAt.getTime() > (opts.stuckAfterMs ?? 60_000);
    if (stuck) await replaceStuck(db, net, client, account, w, now);
    else await broadcastRaw(client, w.signedTx as Hex);
    if (w.broadcastAt === null) await db.update(withdrawals).set({ broadcastAt: now }).where(eq(withdrawals.id, w.id));
  }
  return { completed, failed };
}

async function requeue(db: Db, w: Withdrawal, now: Date) {
  await db
    .update(withdrawals)
    .set({ status: 'PENDING', nonce: null, signedTx: null, txHash: null, replacedTxHashes: [], broadcastAt: null, nextAttemptAt: now, updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING')));
}

async function replaceStuck(db: Db, net: LaneNetwork, client: PublicClient, account: PrivateKeyAccount, w: Withdrawal, now: Date) {
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
  await db
    .update(withdrawals)
    .set({ signedTx: signed, txHash: keccak256(signed), gasPrice, replacedTxHashes: [...w.replacedTxHashes, w.txHash!], broadcastAt: now, updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PROCESSING')));
  await broadcastRaw(client, signed);
}
