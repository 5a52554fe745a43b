import { and, eq, isNull, sql } from 'drizzle-orm';
import { keccak256, parseUnits, type PublicClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { withdrawalBatches, withdrawals, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { broadcastRaw } from '@/lib/chain/broadcast-raw';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { disperseData } from '@/lib/chain/evm/disperse/disperse-call';
import { railOf, type EvmNetwork } from '@/lib/chain/network';
import { CHAIN_SPECS, gasCoinOf } from '@/lib/config/rails';
import { recordGasSpend } from '@/lib/chain/record-gas-spend';
import { batchShare } from './batch-share';
import type { LaneNetwork } from './lane-helpers';

/**
 * A batch's mined receipt, read through any of its items: the gas once in gas_spend (kind withdrawal_batch) and on
 * the batch row, with each item's share of the cost priced in the token (batch-share.ts; unpriced: the note says
 * why). Idempotent: every item reads the same receipt, and the row is written once.
 */
export async function recordBatchGas(db: Db, net: LaneNetwork<EvmNetwork>, batchId: string, r: { hash: string; gasUsed: bigint; gasPrice: bigint }) {
  await recordGasSpend(db, {
    mode: net.mode,
    chainId: net.chainId,
    kind: 'withdrawal_batch',
    referenceId: batchId,
    txHash: r.hash,
    gasUsed: r.gasUsed,
    gasPrice: r.gasPrice,
  });
  const [batch] = await db.select({ itemCount: withdrawalBatches.itemCount }).from(withdrawalBatches).where(eq(withdrawalBatches.id, batchId));
  if (!batch) return;
  const costWei = r.gasUsed * r.gasPrice;
  const priced = batchShare({
    costWei,
    itemCount: batch.itemCount,
    gasCoinUsd: net.gasCoinUsd,
    nativeDecimals: CHAIN_SPECS[net.chain].nativeDecimals,
    setting: `${net.mode.toUpperCase()}_${net.chain}`,
    coin: gasCoinOf(net.chain),
  });
  await db
    .update(withdrawalBatches)
    .set({
      gasUsed: r.gasUsed.toString(),
      costWei: costWei.toString(),
      itemShare: priced.share?.toFixed() ?? null,
      pricingNote: priced.note,
      minedAt: new Date(),
    })
    .where(and(eq(withdrawalBatches.id, batchId), isNull(withdrawalBatches.gasUsed)));
}

class LostRace extends Error {}

/**
 * A stuck batch re-signed whole under its nonce with a higher gas price: the same call over the same items, and
 * every item takes the new hash in one statement, only over the hash this pass read (a second pass replacing it at
 * the same time finds nothing to update and broadcasts nothing). Items no longer all open under that hash (a
 * divergence no path makes) are left to their first transaction.
 */
export async function replaceStuckBatch(
  db: Db,
  lane: LaneNetwork<EvmNetwork>,
  client: PublicClient,
  account: PrivateKeyAccount,
  w: Withdrawal,
  now: Date,
) {
  const net = railOf(lane, w.token);
  const [batch] = await db.select().from(withdrawalBatches).where(eq(withdrawalBatches.id, w.batchId!));
  if (!net || !batch || !lane.disperseAddress) return;
  const items = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.batchId, batch.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)))
    .orderBy(withdrawals.id);
  if (items.length !== batch.itemCount) return;
  const market = await client.getGasPrice();
  const bumped = (w.gasPrice! * 125n) / 100n;
  const gasPrice = bumped > market ? bumped : market;
  const data = disperseData(
    net.tokenAddress,
    items.map((i) => ({ to: EVM_ADDRESS_CODEC.parse(i.destinationAddress), amount: parseUnits(i.netAmount, net.decimals) })),
  );
  const signed = await account.signTransaction({
    type: 'legacy',
    chainId: net.chainId,
    nonce: w.nonce!,
    to: lane.disperseAddress,
    data,
    gas: batch.gasLimit,
    gasPrice,
  });
  const txHash = keccak256(signed);
  const replaced = await db
    .transaction(async (tx) => {
      const rows = await tx
        .update(withdrawals)
        // Each item's own history (items re-batched after a requeue may carry different earlier hashes).
        .set({
          signedTx: signed,
          txHash,
          gasPrice,
          replacedTxHashes: sql`array_append(${withdrawals.replacedTxHashes}, ${w.txHash!})`,
          broadcastAt: now,
          updatedAt: now,
        })
        .where(and(eq(withdrawals.batchId, batch.id), eq(withdrawals.status, 'PROCESSING'), eq(withdrawals.txHash, w.txHash!)))
        .returning({ id: withdrawals.id });
      // Another pass changed some meanwhile: none of this signature is kept.
      if (rows.length !== items.length) throw new LostRace();
      await tx.update(withdrawalBatches).set({ txHash, gasPrice }).where(eq(withdrawalBatches.id, batch.id));
      return true;
    })
    .catch((err: unknown) => {
      if (err instanceof LostRace) return false;
      throw err;
    });
  if (replaced) await broadcastRaw(client, signed);
}
