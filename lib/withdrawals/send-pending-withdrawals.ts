import { railOf } from '@/lib/chain/network';
import { and, eq, sql } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, formatUnits, keccak256, parseUnits, type Address, type Hex, type PublicClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { failWithdrawal } from './finish-withdrawal';
import { broadcastRaw } from '@/lib/chain/broadcast-raw';
import { reserveNonce } from '@/lib/chain/reserve-nonce';
import { resultOf, rpcBatch, RpcReadError } from '@/lib/chain/rpc-batch';
import { transferData, type LaneNetwork } from './lane-helpers';
import { dueWithdrawals } from './due-withdrawals';

export interface SendOptions {
  now?: Date;
  /** Wait before re-checking a withdrawal the hot wallet cannot fund yet. */
  retryDelayMs?: number;
  /** Tests: runs after the signed transaction is stored, before it is broadcast (a crash there). */
  beforeBroadcast?: (w: Withdrawal) => void | Promise<void>;
}

const REVERT = /revert|execution reverted|paused/i;

/**
 * The hot wallet's USDT and BNB, the gas price and the transfer's gas
 * estimate from one node in one batch: a revert is believed only beside that
 * node's own token balance, so a node behind the others cannot fail a
 * withdrawal the wallet can pay. A failed read throws (the pass ends, nothing changes).
 */
async function preflight(net: LaneNetwork, from: Address, data: Hex) {
  const [token, bnb, price, estimate] = await rpcBatch(net.rpcUrl, [
    {
      method: 'eth_call',
      params: [{ to: net.tokenAddress, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [from] }) }, 'latest'],
    },
    { method: 'eth_getBalance', params: [from, 'latest'] },
    { method: 'eth_gasPrice', params: [] },
    { method: 'eth_estimateGas', params: [{ from, to: net.tokenAddress, data }] },
  ]);
  return {
    tokenBalance: BigInt(resultOf(token!, 'balanceOf') as string),
    bnb: BigInt(resultOf(bnb!, 'eth_getBalance') as string),
    gasPrice: BigInt(resultOf(price!, 'eth_gasPrice') as string),
    estimate: estimate!,
  };
}

async function postpone(db: Db, w: Withdrawal, reason: string, now: Date, delayMs: number) {
  await db
    .update(withdrawals)
    .set({ pendingReason: reason, nextAttemptAt: new Date(now.getTime() + delayMs), updatedAt: now })
    .where(and(eq(withdrawals.id, w.id), eq(withdrawals.status, 'PENDING')));
}

/**
 * Sends the due PENDING withdrawals of one hot wallet, one at a time (the
 * lane): check funds, reserve the next nonce, sign, store the signed
 * transaction with status PROCESSING, then broadcast. A crash after the store
 * leaves a PROCESSING row whose exact bytes tracking re-broadcasts; nothing is
 * ever signed twice for one withdrawal.
 */
export async function sendPendingWithdrawals(db: Db, lane: LaneNetwork, client: PublicClient, account: PrivateKeyAccount, opts: SendOptions = {}) {
  const net = lane;
  const now = opts.now ?? new Date();
  const due = await dueWithdrawals(db, net, now);
  let sent = 0;
  for (const w of due) {
    // The withdrawal's token on this network: its contract and decimals. A token no longer enabled here waits (never another token).
    const net = railOf(lane, w.token);
    if (!net) {
      await postpone(db, w, `${w.token} is not enabled on ${lane.chain}; waiting.`, now, opts.retryDelayMs ?? 15_000);
      continue;
    }
    const amount = parseUnits(w.netAmount, net.decimals);
    const data = transferData(w.destinationAddress as `0x${string}`, amount);
    let pre: Awaited<ReturnType<typeof preflight>>;
    try {
      pre = await preflight(net, account.address, data);
    } catch (err) {
      if (!(err instanceof RpcReadError)) throw err;
      await postpone(db, w, `Chain state could not be read (${err.message.slice(0, 120)}); retrying.`, now, opts.retryDelayMs ?? 15_000);
      continue;
    }
    if (pre.tokenBalance < amount) {
      await postpone(
        db,
        w,
        `Hot wallet holds ${formatUnits(pre.tokenBalance, net.decimals)} ${net.token}, needs ${w.netAmount}; retrying.`,
        now,
        opts.retryDelayMs ?? 15_000,
      );
      continue;
    }
    if (!pre.estimate.ok) {
      const message = pre.estimate.message;
      if (pre.estimate.code === 3 || REVERT.test(message)) {
        // The same node, at the same state, holds the tokens and still reverts the transfer: an answer, not a glitch.
        await failWithdrawal(db, w.id, `The token transfer would revert: ${message.split('\n')[0]!.slice(0, 200)}`);
      } else {
        await postpone(db, w, 'Could not estimate gas (RPC unavailable); retrying.', now, opts.retryDelayMs ?? 15_000);
      }
      continue;
    }
    const { bnb, gasPrice } = pre;
    let gas = BigInt(pre.estimate.result as string);
    gas = (gas * 12n) / 10n;
    if (bnb < gas * gasPrice) {
      await postpone(db, w, `Hot wallet lacks ${net.nativeCoin ?? 'BNB'} for gas; retrying.`, now, opts.retryDelayMs ?? 15_000);
      continue;
    }
    const from = account.address.toLowerCase();
    const chainPending = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const stored = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(withdrawals).where(eq(withdrawals.id, w.id)).for('update');
      if (!locked || locked.status !== 'PENDING') return null;
      const nonce = await reserveNonce(tx, net.chainId, from, chainPending);
      const raw = await account.signTransaction({ type: 'legacy', chainId: net.chainId, nonce, to: net.tokenAddress, data, gas, gasPrice });
      const [row] = await tx
        .update(withdrawals)
        .set({
          status: 'PROCESSING',
          nonce,
          signedTx: raw,
          txHash: keccak256(raw),
          gasPrice,
          pendingReason: null,
          sendAttempts: sql`${withdrawals.sendAttempts} + 1`,
          updatedAt: now,
        })
        .where(eq(withdrawals.id, w.id))
        .returning();
      return row!;
    });
    if (!stored) continue;
    await opts.beforeBroadcast?.(stored);
    await broadcastRaw(client, stored.signedTx as Hex);
    await db.update(withdrawals).set({ broadcastAt: new Date() }).where(eq(withdrawals.id, stored.id));
    sent++;
  }
  return sent;
}
