import { eq, sql } from 'drizzle-orm';
import type { Address, KeyPairSigner } from '@solana/kit';
import { settlements, settlementTxs, type SolanaSweepPlan } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { log } from '@/lib/log';
import { sleep } from '@/lib/async/sleep';
import { findRecordedTx } from '@/lib/chain/send-recorded-tx';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { broadcastSolanaTransaction } from '@/lib/chain/solana/broadcast-transaction';
import { buildSolanaSweep, type SignedSolanaTransaction } from '@/lib/chain/solana/build-sweep';
import { judgeSentTransaction } from '@/lib/chain/solana/judge-sent-transaction';
import { planSolanaSweep } from '@/lib/chain/solana/plan-sweep';
import { SolanaRpcError, type SolanaRpc } from '@/lib/chain/solana/rpc';
import { storedSweepPlan } from '../common/stored-sweep-plan';
import type { TronSweepHooks } from '../tron/send-tron-step';
import { SettlementWaiting } from '../tron/settlement-waiting';

/**
 * One attempt follows its transaction this long: a blockhash is accepted for 150 blocks (~60-90 s on mainnet) and
 * finality takes ~32 slots more. Past it the settlement goes back in the queue, not counted as a failure.
 */
const FINAL_WITHIN_MS = 3 * 60_000;
const POLL_MS = 1_000;

type Row = typeof settlementTxs.$inferSelect;

export interface SolanaSweepContext {
  rpc: SolanaRpc;
  chainId: number;
  settlementId: string;
  /** The invoice's deposit owner: signs the transfer and the close, holds no SOL. */
  owner: KeyPairSigner;
  /** The gas wallet: fee payer, pays a new destination account's rent and gets the closed account's back. */
  feePayer: KeyPairSigner;
  hot: Address;
  mint: Address;
  decimals: number;
  /** The sweep's test hooks (settle-invoice.ts's SettleHooks, the same shape as TRON's). */
  hooks: TronSweepHooks;
}

/**
 * The on-chain part of a Solana sweep, exactly once (docs/solana.md §6.2). The transaction is signed, then its bytes,
 * signature and lastValidBlockHeight are stored (settlement_txs, step `custody`, with the plan in the same database
 * transaction) BEFORE it is broadcast. A resumed sweep never signs again while the stored one may land: it asks
 * judgeSentTransaction, and `pending` re-sends the same bytes (the same signature lands once at most); only
 * `safely_expired` (no status, the finalized block height past lastValidBlockHeight) or a failure final at
 * `finalized` (e.g. CloseAccount refused because a payment arrived meanwhile) lets a new transaction be planned and
 * signed, the old signature kept in replaced_tx_hashes. Done when the transaction is `finalized` without error; its
 * fee is recorded in gas_spend (failed ones too: their fee is paid).
 */
export async function sweepSolanaDeposit(db: Db, ctx: SolanaSweepContext, plan: SolanaSweepPlan): Promise<void> {
  let row = (await findRecordedTx(db, ctx.settlementId, 'custody')) ?? (await recordAndBroadcast(db, ctx, plan));
  const deadline = Date.now() + FINAL_WITHIN_MS;
  while (row.status !== 'confirmed') {
    const judged = await judgeSentTransaction(ctx.rpc, { signature: row.txHash, lastValidBlockHeight: lastValid(row) });
    if (judged.state === 'landed' && judged.confirmationStatus === 'finalized') {
      await recordFee(db, ctx, row.txHash);
      if (judged.err === null) {
        [row] = await db.update(settlementTxs).set({ status: 'confirmed', confirmedAt: new Date() }).where(eq(settlementTxs.id, row.id)).returning();
        break;
      }
      // Final and failed: it moved nothing and its signature can never land again, so the sweep is planned afresh.
      row = await replace(db, ctx, row, `failed: ${JSON.stringify(judged.err)}`);
      continue;
    }
    if (judged.state === 'safely_expired') {
      row = await replace(db, ctx, row, 'expired unlanded');
      continue;
    }
    // Pending: the same bytes again (a dropped transaction is sent again, never a new one). Landed, not final: wait.
    if (judged.state === 'pending') await resend(ctx, row);
    if (Date.now() > deadline)
      throw new SettlementWaiting(`the sweep transaction ${row.txHash} is not final yet (${judged.state}): followed again on the next turn`);
    await (ctx.hooks.onWait ? ctx.hooks.onWait('custody', ctx.settlementId) : sleep(POLL_MS));
  }
  await ctx.hooks.afterStep?.('custody', ctx.settlementId);
}

const lastValid = (row: Row) => {
  if (row.lastValidBlockHeight === null) throw new Error(`settlement tx ${row.id} has no lastValidBlockHeight: not a Solana transaction`);
  return row.lastValidBlockHeight;
};

/** Plans against the chain as it is now and signs; a plan the chain refuses is no transaction. */
async function planAndSign(ctx: SolanaSweepContext, units: bigint): Promise<SignedSolanaTransaction> {
  const planned = await planSolanaSweep(ctx.rpc, {
    owner: ctx.owner.address,
    mint: ctx.mint,
    decimals: ctx.decimals,
    destinationOwner: ctx.hot,
    amount: units,
  });
  if ('refused' in planned) {
    const why = `the sweep of ${units} units from ${ctx.owner.address}'s token account is refused: ${planned.refused}`;
    // The node's finalized view lacks what the settlement was made from (a node behind), or an outflow is still
    // landing: a read to make again later, never a failure of the settlement.
    if (planned.refused === 'less_than_planned' || planned.refused === 'nothing_to_sweep' || planned.refused === 'outflow_pending')
      throw new RpcReadError(why);
    throw new Error(why);
  }
  return buildSolanaSweep(planned, { owner: ctx.owner, feePayer: ctx.feePayer });
}

/** The first transaction: signed, stored with the plan, then broadcast. */
async function recordAndBroadcast(db: Db, ctx: SolanaSweepContext, plan: SolanaSweepPlan): Promise<Row> {
  const signed = await planAndSign(ctx, BigInt(plan.units));
  const row = await db.transaction(async (tx) => {
    const [s] = await tx.select({ gasPlan: settlements.gasPlan }).from(settlements).where(eq(settlements.id, ctx.settlementId)).for('update');
    if (!storedSweepPlan({ id: ctx.settlementId, gasPlan: s?.gasPlan ?? null }, 'solana'))
      await tx.update(settlements).set({ gasPlan: plan }).where(eq(settlements.id, ctx.settlementId));
    const [inserted] = await tx
      .insert(settlementTxs)
      .values({
        id: newId('chainTx'),
        settlementId: ctx.settlementId,
        step: 'custody',
        chainId: ctx.chainId,
        fromAddress: ctx.owner.address,
        toAddress: ctx.hot,
        nonce: null,
        txHash: signed.signature,
        rawTx: signed.wire,
        lastValidBlockHeight: signed.lastValidBlockHeight,
        value: plan.units,
      })
      .returning();
    return inserted!;
  });
  await ctx.hooks.beforeBroadcast?.('custody', ctx.settlementId);
  await resend(ctx, row);
  return row;
}

/**
 * A stored transaction that can never land (proven expired, or final and failed): planned and signed anew from the
 * recorded amount, stored over it (the old signature in replaced_tx_hashes) before it is broadcast.
 */
async function replace(db: Db, ctx: SolanaSweepContext, row: Row, why: string): Promise<Row> {
  log.info('Solana sweep transaction replaced', { settlementId: ctx.settlementId, signature: row.txHash, why });
  const signed = await planAndSign(ctx, BigInt(row.value));
  const [next] = await db
    .update(settlementTxs)
    .set({
      txHash: signed.signature,
      rawTx: signed.wire,
      lastValidBlockHeight: signed.lastValidBlockHeight,
      status: 'signed',
      replacedTxHashes: sql`array_append(coalesce(${settlementTxs.replacedTxHashes}, '{}'), ${row.txHash})`,
    })
    .where(eq(settlementTxs.id, row.id))
    .returning();
  await ctx.hooks.beforeBroadcast?.('custody', ctx.settlementId);
  await resend(ctx, next!);
  return next!;
}

/**
 * The stored bytes, sent (again). A refusal is no verdict: preflight refuses an expired blockhash or a close that a
 * new payment makes fail, but only judgeSentTransaction decides, from the chain, whether it may be replaced.
 */
async function resend(ctx: SolanaSweepContext, row: Row): Promise<void> {
  try {
    await broadcastSolanaTransaction(ctx.rpc, { signature: row.txHash, wire: row.rawTx });
  } catch (err) {
    if (!(err instanceof SolanaRpcError)) throw err;
    log.warn('Solana sweep transaction not accepted by the node; judged by its status', {
      settlementId: ctx.settlementId,
      signature: row.txHash,
      error: err.message,
      data: err.data,
    });
  }
}

/** The fee the gas wallet paid for a finalized transaction (lamports), once per signature. */
async function recordFee(db: Db, ctx: SolanaSweepContext, signature: string) {
  const tx = await ctx.rpc.call('getTransaction', [signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }]);
  if (!tx?.meta) throw new SolanaRpcError('getTransaction', `${signature} is finalized but its transaction is not readable`);
  await recordGasSpend(db, {
    mode: { ofSettlement: ctx.settlementId },
    chainId: ctx.chainId,
    kind: 'sweep_custody',
    referenceId: ctx.settlementId,
    txHash: signature,
    // Solana has no gas: the signatures paid for (5,000 lamports each, no priority fee).
    gasUsed: BigInt(tx.transaction.signatures?.length ?? 0),
    cost: BigInt(tx.meta.fee),
  });
}
