import { and, eq, inArray, sql } from 'drizzle-orm';
import { encodeFunctionData, erc20Abi, formatUnits, keccak256, parseUnits, type Hex, type PublicClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { withdrawalBatches, withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { newId } from '@/lib/ids';
import { log } from '@/lib/log';
import { gasCoinOf } from '@/lib/config/rails';
import { broadcastRaw } from '@/lib/chain/broadcast-raw';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { DEFAULT_DISPERSE_CAP, disperseData } from '@/lib/chain/evm/disperse/disperse-call';
import { freezeListCall, frozenFrom } from '@/lib/chain/freeze-list';
import { railOf, type EvmNetwork } from '@/lib/chain/network';
import { reserveNonce } from '@/lib/chain/reserve-nonce';
import { resultOf, rpcBatch, RpcReadError } from '@/lib/chain/rpc-batch';
import { failWithdrawal } from './finish-withdrawal';
import type { LaneNetwork } from './lane-helpers';
import type { SendOptions } from './run-send-lane';
import { stopScreened } from './stop-screened';

const REVERT = /revert|execution reverted|paused/i;

type Disperse = LaneNetwork<EvmNetwork> & { disperseAddress: `0x${string}` };

/** The items of one batch, their call data and what the chain said about them. */
interface Plan {
  net: Disperse;
  items: Withdrawal[];
  data: Hex;
  total: bigint;
}

/**
 * EVM payout items (withdrawals.batchable) on a network with a disperse contract: sent `cap` at a time in one
 * transaction (lib/chain/evm/disperse/Disperse.sol) instead of one each. Same rules as the single lane
 * (run-send-lane.ts): screened again before signing, freeze lists read, funds checked; the batch is recorded (its
 * row, and every item PROCESSING with the batch's nonce, bytes and hash) in one transaction with the items locked
 * and still PENDING, and only then broadcast. Returns how many items it sent and the withdrawals it leaves to the
 * single lane (not batchable, or a batch whose estimate reverts: one by one, the item at fault is found and failed alone).
 */
export async function sendBatches(
  db: Db,
  lane: LaneNetwork<EvmNetwork>,
  client: PublicClient,
  account: PrivateKeyAccount,
  due: Withdrawal[],
  opts: SendOptions,
): Promise<{ sent: number; rest: Withdrawal[] }> {
  const disperse = lane.disperseAddress;
  if (!disperse) return { sent: 0, rest: due };
  const now = opts.now ?? new Date();
  const cap = Math.max(1, opts.batchCap ?? env().PAYOUT_BATCH_CAP ?? DEFAULT_DISPERSE_CAP);
  const rest: Withdrawal[] = [];
  const byToken = new Map<string, Withdrawal[]>();
  for (const w of due) {
    // A token no longer enabled here goes to the single lane, which postpones it with the reason.
    if (!w.batchable || !railOf(lane, w.token)) rest.push(w);
    else byToken.set(w.token, [...(byToken.get(w.token) ?? []), w]);
  }
  let sent = 0;
  for (const [token, items] of byToken) {
    const net = { ...railOf(lane, token as Withdrawal['token'])!, disperseAddress: disperse } as Disperse;
    const open: Withdrawal[] = [];
    // Screened again right before signing, per item (the list and the adapters).
    for (const w of items) {
      const screened = await stopScreened(db, w, lane.chain);
      // One no adapter could judge now waits unsigned, as in the single lane.
      if (screened.kind === 'unscreened') await postpone(db, [w], screened.reason, now, opts.retryDelayMs ?? 15_000);
      if (screened.kind === 'clean') open.push(w);
    }
    for (let k = 0; k < open.length; k += cap) {
      const chunk = open.slice(k, k + cap).sort((a, b) => (a.id < b.id ? -1 : 1));
      const outcome = await sendOne(db, net, client, account, chunk, now, opts);
      sent += outcome.sent;
      rest.push(...outcome.single);
    }
  }
  return { sent, rest };
}

function planOf(net: Disperse, items: Withdrawal[]): Plan {
  const payments = items.map((w) => ({ to: EVM_ADDRESS_CODEC.parse(w.destinationAddress), amount: parseUnits(w.netAmount, net.decimals) }));
  return { net, items, data: disperseData(net.tokenAddress, payments), total: payments.reduce((s, p) => s + p.amount, 0n) };
}

async function postpone(db: Db, items: Withdrawal[], reason: string, now: Date, delayMs: number) {
  await db
    .update(withdrawals)
    .set({ pendingReason: reason, nextAttemptAt: new Date(now.getTime() + delayMs), updatedAt: now })
    .where(
      and(
        inArray(
          withdrawals.id,
          items.map((w) => w.id),
        ),
        eq(withdrawals.status, 'PENDING'),
      ),
    );
}

/** One batch: read, decide, record, broadcast. `single`: items handed to the one-by-one lane. */
async function sendOne(
  db: Db,
  net: Disperse,
  client: PublicClient,
  account: PrivateKeyAccount,
  chunk: Withdrawal[],
  now: Date,
  opts: SendOptions,
): Promise<{ sent: number; single: Withdrawal[] }> {
  const delay = opts.retryDelayMs ?? 15_000;
  const from = account.address;
  let plan = planOf(net, chunk);
  let pre;
  try {
    pre = await preflight(plan, from);
  } catch (err) {
    if (!(err instanceof RpcReadError)) throw err;
    await postpone(db, chunk, `Chain state could not be read (${err.message.slice(0, 120)}); retrying.`, now, delay);
    return { sent: 0, single: [] };
  }
  // The issuer froze a destination since the item was accepted: that item fails alone, the others go next pass.
  const frozen = chunk.filter((_, i) => pre.frozen[i]);
  if (frozen.length > 0) {
    for (const w of frozen) {
      await failWithdrawal(
        db,
        w.id,
        `The destination ${w.destinationAddress} is on the ${net.token} contract's blacklist: tokens sent there would be frozen.`,
      );
    }
    return { sent: 0, single: [] };
  }
  if (pre.tokenBalance < plan.total) {
    const holds = formatUnits(pre.tokenBalance, net.decimals);
    await postpone(
      db,
      chunk,
      `Hot wallet holds ${holds} ${net.token}, needs ${formatUnits(plan.total, net.decimals)} for a batch; retrying.`,
      now,
      delay,
    );
    return { sent: 0, single: [] };
  }
  // The operator has not approved the contract (docs/payouts.md): the items are paid one by one meanwhile.
  if (pre.allowance < plan.total) {
    log.warn('disperse contract not approved by the hot wallet; payout items sent one by one', { chainId: net.chainId, token: net.token });
    return { sent: 0, single: chunk };
  }
  if (!pre.estimate.ok) {
    // Funded and approved, and still a revert: some item would revert alone; one by one finds and fails it.
    if (pre.estimate.code === 3 || REVERT.test(pre.estimate.message)) return { sent: 0, single: chunk };
    await postpone(db, chunk, 'Could not estimate gas (RPC unavailable); retrying.', now, delay);
    return { sent: 0, single: [] };
  }
  const gas = (BigInt(pre.estimate.result as string) * 12n) / 10n;
  if (pre.coin < gas * pre.gasPrice) {
    await postpone(db, chunk, `Hot wallet lacks ${gasCoinOf(net.chain)} for gas; retrying.`, now, delay);
    return { sent: 0, single: [] };
  }
  const chainPending = await client.getTransactionCount({ address: from, blockTag: 'pending' });
  const recorded = await db.transaction(async (tx) => {
    const locked = await tx
      .select()
      .from(withdrawals)
      .where(
        inArray(
          withdrawals.id,
          chunk.map((w) => w.id),
        ),
      )
      .orderBy(withdrawals.id)
      .for('update');
    // Another pass sent one meanwhile, or it was failed or cancelled: this batch is not signed; the next pass plans again.
    if (locked.length !== chunk.length || locked.some((w) => w.status !== 'PENDING')) return null;
    plan = planOf(net, locked);
    const nonce = await reserveNonce(tx, net.chainId, from.toLowerCase(), chainPending);
    const raw = await account.signTransaction({
      type: 'legacy',
      chainId: net.chainId,
      nonce,
      to: net.disperseAddress,
      data: plan.data,
      gas,
      gasPrice: pre.gasPrice,
    });
    const txHash = keccak256(raw);
    const batchId = newId('withdrawalBatch');
    await tx.insert(withdrawalBatches).values({
      id: batchId,
      mode: net.mode,
      chainId: net.chainId,
      token: net.token,
      nonce,
      txHash,
      itemCount: locked.length,
      gasLimit: gas,
      gasPrice: pre.gasPrice,
    });
    const rows = await tx
      .update(withdrawals)
      .set({
        nonce,
        signedTx: raw,
        txHash,
        gasPrice: pre.gasPrice,
        batchId,
        status: 'PROCESSING',
        pendingReason: null,
        sendAttempts: sql`${withdrawals.sendAttempts} + 1`,
        updatedAt: now,
      })
      .where(
        inArray(
          withdrawals.id,
          locked.map((w) => w.id),
        ),
      )
      .returning();
    return { raw, rows };
  });
  if (!recorded) return { sent: 0, single: [] };
  await opts.beforeBroadcast?.(recorded.rows[0]!);
  await broadcastRaw(client, recorded.raw);
  await db
    .update(withdrawals)
    .set({ broadcastAt: new Date() })
    .where(
      inArray(
        withdrawals.id,
        recorded.rows.map((w) => w.id),
      ),
    );
  return { sent: recorded.rows.length, single: [] };
}

/** One node, one batch: token balance and allowance, gas coin, gas price, the batch's estimate, each destination's freeze list. */
async function preflight(plan: Plan, from: `0x${string}`) {
  const { net } = plan;
  const frozenCalls = plan.items.map((w) => freezeListCall(net, EVM_ADDRESS_CODEC.parse(w.destinationAddress)));
  const call = (data: Hex) => ({ method: 'eth_call', params: [{ to: net.tokenAddress, data }, 'latest'] });
  const out = await rpcBatch(net.rpcUrl, [
    call(encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [from] })),
    call(encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [from, net.disperseAddress] })),
    { method: 'eth_getBalance', params: [from, 'latest'] },
    { method: 'eth_gasPrice', params: [] },
    { method: 'eth_estimateGas', params: [{ from, to: net.disperseAddress, data: plan.data }] },
    ...frozenCalls.filter((c) => c !== null),
  ]);
  let f = 5;
  return {
    tokenBalance: BigInt(resultOf(out[0]!, 'balanceOf') as string),
    allowance: BigInt(resultOf(out[1]!, 'allowance') as string),
    coin: BigInt(resultOf(out[2]!, 'eth_getBalance') as string),
    gasPrice: BigInt(resultOf(out[3]!, 'eth_gasPrice') as string),
    estimate: out[4]!,
    frozen: frozenCalls.map((c) => (c ? frozenFrom(net, out[f++]!) : false)),
  };
}
