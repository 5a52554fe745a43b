import { eq, sql } from 'drizzle-orm';
import { settlementTxs, type SettlementStep } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { findRecordedTx } from '@/lib/chain/send-recorded-tx';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { broadcastTronTx, lookupTronTx, TronBroadcastError } from '@/lib/chain/tron/broadcast';
import { isSafelyExpired } from '@/lib/chain/tron/expiry';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import type { TronBlockRef } from '@/lib/chain/tron/parse';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { readSolidifiedBlock } from '@/lib/chain/tron/solidified-height';
import { signTronTx, type SignedTronTx, type UnsignedTronTx } from '@/lib/chain/tron/transactions';
import { sleep } from '@/lib/async/sleep';
import { log } from '@/lib/log';
import { SettlementWaiting } from './settlement-waiting';

/** Minutes, not TronWeb's 60 s: a resumed sweep rebroadcasts the same bytes for this long before it may re-sign. */
export const TRON_TX_LIFETIME_MS = 5 * 60_000;
/** Solidification takes ~19 blocks (~57 s); past this the attempt ends unchanged and the settlement resumes later. */
const FINAL_WITHIN_MS = 4 * 60_000;
const POLL_MS = 1_000;

type Row = typeof settlementTxs.$inferSelect;

/** The test hooks of a sweep (lib/settlements/settle-invoice.ts passes its SettleHooks, the same shape). */
export interface TronSweepHooks {
  afterStep?: (step: SettlementStep, settlementId: string) => void | Promise<void>;
  beforeBroadcast?: (step: SettlementStep, settlementId: string) => void | Promise<void>;
  onWait?: (step: SettlementStep, settlementId: string) => void | Promise<void>;
}

export interface TronStepContext {
  db: Db;
  client: TronNodeClient;
  chainId: number;
  settlementId: string;
  hooks: TronSweepHooks;
}

export interface TronStep {
  step: SettlementStep;
  /** The signer's key (hex without 0x, TronWeb's form) and its stored `41…` address. */
  key: string;
  from: string;
  /** Who receives the TRX, USDT, account or resource (`41…`). */
  to: string;
  /**
   * What the record shows as moved (sun, or token base units for the custody transfer), asked only while the step
   * is not recorded; null when the chain shows it is not needed (it is skipped). A failed read throws: no answer.
   */
  value: () => Promise<string | null>;
  /** Builds the transaction moving `value` against a reference block (called again only to re-sign an expired one, with the recorded value). */
  build: (value: bigint, ref: TronBlockRef, lifetimeMs: number) => Promise<UnsignedTronTx>;
  /**
   * When the step counts as done: `included` (in a block, one block's wait) for the preparatory steps, whose
   * loss in a fork only makes a later step fail and be planned again; `solidified` for the custody transfer,
   * which gates crediting. Default `solidified`.
   */
  final?: 'included' | 'solidified';
  /**
   * Re-judges a recorded step whose transaction can no longer land as recorded (proven expired, refused by the
   * node, or final but failed): the value to sign it again with, or null when the chain shows its effect is
   * already there (the row is marked `skipped`). Absent: `value` is asked again. Throws when it cannot be done.
   */
  replan?: (failed: string | null) => Promise<string | null>;
  /**
   * A refusal that passes by itself (the energy wallet's stake busy with other sweeps' energy): the settlement
   * waits in the queue (SettlementWaiting) and the same bytes are broadcast again on its next turn.
   */
  waitsOn?: RegExp;
}

const signedOf = (row: Row): SignedTronTx & { refBlockHash?: string } => {
  const tx = JSON.parse(row.rawTx);
  return {
    txId: row.txHash,
    tx,
    expiration: row.expiresAt!.getTime(),
    refBlockNumber: row.refBlockNumber!,
    refBlockHash: tx?.raw_data?.ref_block_hash,
  };
};

async function signAgainstHead(client: TronNodeClient, step: TronStep, value: string) {
  const { head } = await readTronHeads(client);
  return signTronTx(await step.build(BigInt(value), head, TRON_TX_LIFETIME_MS), step.key, head.number);
}

/**
 * Runs one TRON step of a settlement exactly once: signed against a recent block, recorded (txID, signed
 * transaction, expiration, reference block) before broadcast, then followed until solidified. A step already
 * recorded is resumed whatever the chain now says (its `value` is not asked again), and never signed again while
 * it could still land: unknown to the node and not expired, the same bytes are broadcast again; only once
 * `isSafelyExpired` proves it can never be mined is it re-signed (the old txID kept in replaced_tx_hashes). The
 * TRX it burned is recorded in gas_spend. `afterStep` follows, whether the step was sent or not needed.
 */
export async function runTronStep(ctx: TronStepContext, step: TronStep): Promise<void> {
  let row = (await findRecordedTx(ctx.db, ctx.settlementId, step.step)) ?? (await recordAndBroadcast(ctx, step));
  if (row && row.status === 'confirmed' && step.final === 'included') row = await stillIncluded(ctx, row);
  if (row) await awaitTronStep(ctx, row, step);
  await ctx.hooks.afterStep?.(step.step, ctx.settlementId);
}

/**
 * A step counted done on inclusion is looked up again on every later attempt: a reorg may have taken its block
 * (issue 44, early sweeps). Gone from the node: followed again like a step just broadcast (the same bytes, or,
 * once isSafelyExpired proves they can never land, judged and signed anew).
 */
async function stillIncluded(ctx: TronStepContext, row: Row): Promise<Row> {
  if ((await lookupTronTx(ctx.client, row.txHash)).state !== 'unknown') return row;
  log.warn('TRON step left the chain (reorg): followed again', { settlementId: ctx.settlementId, step: row.step, txId: row.txHash });
  const [again] = await ctx.db.update(settlementTxs).set({ status: 'signed', confirmedAt: null }).where(eq(settlementTxs.id, row.id)).returning();
  return again!;
}

/**
 * Sends a step that already ran once more, with a new value (a failed custody transfer planned again needs more
 * delegated energy): the recorded row gets the new transaction (the old txID in replaced_tx_hashes), recorded
 * before broadcast, and is followed like any step.
 */
export async function sendTronStepAgain(ctx: TronStepContext, step: TronStep, value: string): Promise<void> {
  const row = await findRecordedTx(ctx.db, ctx.settlementId, step.step);
  if (!row) return runTronStep(ctx, step);
  const next = await resign(ctx, row, step, value);
  await ctx.hooks.beforeBroadcast?.(step.step, ctx.settlementId);
  await broadcastTronTx(ctx.client, signedOf(next));
  await awaitTronStep(ctx, next, step);
}

/** A step not recorded yet: signed, recorded, then broadcast; null (nothing recorded) when it is not needed. */
async function recordAndBroadcast(ctx: TronStepContext, step: TronStep): Promise<Row | null> {
  const value = await step.value();
  if (value === null) return null;
  const signed = await signAgainstHead(ctx.client, step, value);
  const [row] = await ctx.db
    .insert(settlementTxs)
    .values({
      id: newId('chainTx'),
      settlementId: ctx.settlementId,
      step: step.step,
      chainId: ctx.chainId,
      fromAddress: step.from,
      toAddress: step.to,
      nonce: null,
      txHash: signed.txId,
      rawTx: JSON.stringify(signed.tx),
      expiresAt: new Date(signed.expiration),
      refBlockNumber: signed.refBlockNumber,
      value,
    })
    .returning();
  await ctx.hooks.beforeBroadcast?.(step.step, ctx.settlementId);
  await broadcastTronTx(ctx.client, signed).catch((err) => waitOrThrow(step, err));
  return row!;
}

async function awaitTronStep(ctx: TronStepContext, row: Row, step: TronStep): Promise<Row | null> {
  const deadline = Date.now() + FINAL_WITHIN_MS;
  // The block a transaction was last seen mined in: until the solidified height reaches it, asking the node about
  // the transaction again tells nothing new (issue 44: 2 calls a second per waiting sweep). The solidified block is
  // one read per tick shared by all sweeps (readSolidifiedBlock); only the node's own solidified answer counts it final.
  let minedIn: number | null = null;
  // Tests mine a block per wait (onWait): a read made before it is not reused.
  const maxAgeMs = ctx.hooks.onWait ? 0 : POLL_MS;
  const tick = async () => {
    if (Date.now() > deadline) throw new RpcReadError(`${row.step} transaction ${row.txHash} not solidified within ${FINAL_WITHIN_MS / 1000} s`);
    await (ctx.hooks.onWait ? ctx.hooks.onWait(row.step, ctx.settlementId) : sleep(POLL_MS));
  };
  for (;;) {
    if (row.status === 'confirmed' || row.status === 'skipped') return row;
    if (minedIn !== null && (await readSolidifiedBlock(ctx.client, maxAgeMs)).number < minedIn) {
      await tick();
      continue;
    }
    const found = await lookupTronTx(ctx.client, row.txHash);
    minedIn = found.state === 'mined' ? found.info.blockNumber : null;
    if (found.state === 'solidified' || (found.state === 'mined' && step.final === 'included')) {
      // Fees are burned whether or not the contract succeeded: who paid them is on record either way.
      await recordGasSpend(ctx.db, {
        mode: { ofSettlement: ctx.settlementId },
        chainId: ctx.chainId,
        kind: `sweep_${row.step}`,
        referenceId: ctx.settlementId,
        txHash: row.txHash,
        gasUsed: BigInt(found.info.energyTotal),
        cost: found.info.fee,
      });
      if (!found.info.ok) {
        // Final and failed (OUT_OF_ENERGY, REVERT): it moved nothing and its txID can never land again, so the
        // step is judged again and signed anew rather than thrown on every resume (issue 42: the sweep wedge).
        const why = `${row.step} transaction ${row.txHash} failed: ${found.info.contractRet}${found.info.message ? ` (${found.info.message})` : ''}`;
        const next = await rejudge(ctx, row, step, why);
        if (!next) return null;
        row = next;
        continue;
      }
      const [done] = await ctx.db
        .update(settlementTxs)
        .set({ status: 'confirmed', confirmedAt: new Date() })
        .where(eq(settlementTxs.id, row.id))
        .returning();
      return done!;
    }
    if (found.state === 'unknown') {
      if (await isSafelyExpired(signedOf(row), ctx.client, await readSolidifiedBlock(ctx.client, maxAgeMs))) {
        const next = await rejudge(ctx, row, step, null);
        if (!next) return null;
        row = next;
      } else {
        const refused = await rebroadcast(ctx.client, signedOf(row));
        // Refused for good by the node's checks (e.g. `Account has existed`: someone else activated the address):
        // it was never pooled, so if the chain shows the step's effect already there, the step is done.
        if (refused && (await step.value()) === null) return markSkipped(ctx, row, refused);
        if (refused) waitOrThrow(step, new Error(`${row.step} transaction ${row.txHash} refused: ${refused}`));
      }
    }
    // Mined above the solidified block (or just broadcast): wait for it to become irreversible.
    await tick();
  }
}

/**
 * The same bytes again; refused as expired at the head is no answer yet (only the solidified chain proves it
 * never landed). A contract validation refusal is returned (the caller judges the step again), others throw.
 */
async function rebroadcast(client: TronNodeClient, signed: SignedTronTx): Promise<string | null> {
  try {
    await broadcastTronTx(client, signed);
    return null;
  } catch (err) {
    // Expired at the head, or its reference block replaced by a reorg (TAPOS_ERROR): no answer until the
    // solidified chain proves it can never land (isSafelyExpired).
    if (err instanceof TronBroadcastError && (err.code === 'TRANSACTION_EXPIRATION_ERROR' || err.code === 'TAPOS_ERROR')) return null;
    if (err instanceof TronBroadcastError && err.code === 'CONTRACT_VALIDATE_ERROR') return err.message;
    throw err;
  }
}

function waitOrThrow(step: TronStep, err: unknown): never {
  if (step.waitsOn && err instanceof Error && step.waitsOn.test(err.message)) throw new SettlementWaiting(err.message);
  throw err;
}

/**
 * A recorded transaction that can never land as it is (proven expired unmined, or final and failed): the step is
 * judged against the chain again before anything is signed. Its effect already there: skipped (null). Otherwise
 * signed anew with the value judged now (the old txID kept in replaced_tx_hashes) and broadcast.
 */
async function rejudge(ctx: TronStepContext, row: Row, step: TronStep, failed: string | null): Promise<Row | null> {
  const value = await judge(step, failed);
  if (value === null) return markSkipped(ctx, row, failed ?? 'expired unmined');
  // A failed step with no way to plan it again is not signed again with the same value: that would fail the same way.
  if (failed && !step.replan) throw new Error(failed);
  const next = await resign(ctx, row, step, value);
  await ctx.hooks.beforeBroadcast?.(step.step, ctx.settlementId);
  await broadcastTronTx(ctx.client, signedOf(next));
  return next;
}

const judge = (step: TronStep, failed: string | null) => (step.replan ? step.replan(failed) : step.value());

async function markSkipped(ctx: TronStepContext, row: Row, why: string): Promise<null> {
  log.info('TRON step not needed any more: the chain shows its effect', { settlementId: ctx.settlementId, step: row.step, txId: row.txHash, why });
  await ctx.db.update(settlementTxs).set({ status: 'skipped', confirmedAt: new Date() }).where(eq(settlementTxs.id, row.id));
  return null;
}

async function resign(ctx: TronStepContext, row: Row, step: TronStep, value: string): Promise<Row> {
  const signed = await signAgainstHead(ctx.client, step, value);
  const [updated] = await ctx.db
    .update(settlementTxs)
    .set({
      txHash: signed.txId,
      rawTx: JSON.stringify(signed.tx),
      expiresAt: new Date(signed.expiration),
      refBlockNumber: signed.refBlockNumber,
      value,
      status: 'signed',
      replacedTxHashes: sql`array_append(coalesce(${settlementTxs.replacedTxHashes}, '{}'), ${row.txHash})`,
    })
    .where(eq(settlementTxs.id, row.id))
    .returning();
  return updated!;
}
