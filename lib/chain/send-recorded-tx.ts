import { and, asc, eq, gte, lt, max } from 'drizzle-orm';
import { keccak256, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { settlementTxs, type SettlementStep } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { broadcastRaw } from './broadcast-raw';
import { EVM_ADDRESS_CODEC } from './evm/address-codec';
import { recordGasSpend } from './record-gas-spend';
import { reserveNonce } from './reserve-nonce';

export type { SettlementStep } from '@/db/schema';

export interface RecordedTxInput {
  settlementId: string;
  step: SettlementStep;
  chainId: number;
  /** The sender; its key never leaves the account object. */
  account: PrivateKeyAccount;
  to: Address;
  data?: Hex;
  /** Wei sent with the transaction. */
  value: bigint;
  gas: bigint;
  gasPrice: bigint;
  /** What the record shows as moved (wei or token base units). */
  recordValue: string;
  /** The sender is shared by concurrent settlements (the gas wallet): nonces come from a locked row. */
  sharedSender: boolean;
  /** Tests: runs after the record is committed, before the broadcast (a crash there). */
  beforeBroadcast?: () => void | Promise<void>;
}

type Row = typeof settlementTxs.$inferSelect;

export async function findRecordedTx(db: Db, settlementId: string, step: SettlementStep): Promise<Row | undefined> {
  const [row] = await db
    .select()
    .from(settlementTxs)
    .where(and(eq(settlementTxs.settlementId, settlementId), eq(settlementTxs.step, step)));
  return row;
}

/** The receipt, or null when the node answered that it has none; a failed look-up throws (it is no answer). */
async function receiptOrNull(client: PublicClient, hash: Hex) {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (err) {
    if (err instanceof TransactionReceiptNotFoundError) return null;
    throw err;
  }
}

/**
 * Rebroadcasts a recorded transaction if the node lacks it (the identical
 * bytes: harmless if it was mined after all), waits for its receipt, requires
 * success. A failed look-up ends this attempt unchanged; the settlement retries.
 */
export async function confirmRecordedTx(db: Db, client: PublicClient, row: Row): Promise<Row> {
  if (row.status === 'confirmed') return row;
  const existing = await receiptOrNull(client, row.txHash as Hex);
  if (!existing) {
    await broadcastRaw(client, row.rawTx as Hex);
    await fillNonceGap(db, client, row);
  }
  const receipt = existing ?? (await client.waitForTransactionReceipt({ hash: row.txHash as Hex, timeout: 120_000, pollingInterval: 100 }));
  // Gas is spent whether or not the transaction succeeded: the console sets it against the fees earned.
  await recordGasSpend(db, {
    mode: { ofSettlement: row.settlementId },
    chainId: row.chainId,
    kind: `sweep_${row.step}`,
    referenceId: row.settlementId,
    txHash: receipt.transactionHash,
    gasUsed: receipt.gasUsed,
    gasPrice: receipt.effectiveGasPrice,
  });
  if (receipt.status !== 'success') throw new Error(`${row.step} transaction ${row.txHash} reverted`);
  const [updated] = await db
    .update(settlementTxs)
    .set({ status: 'confirmed', confirmedAt: new Date() })
    .where(eq(settlementTxs.id, row.id))
    .returning();
  return updated!;
}

/**
 * Rebroadcasts the sender's recorded transactions below this one's nonce that
 * the chain has not mined yet. The gas wallet is shared: when another
 * settlement's top-up was recorded but its broadcast never arrived (that
 * settlement waits for a retry, or failed for good), every later top-up sits
 * in the pool behind the gap. The recorded bytes are identical, so sending
 * them again is harmless; a nonce that was used meanwhile is refused as too low.
 */
async function fillNonceGap(db: Db, client: PublicClient, row: Row): Promise<void> {
  if (row.nonce === null) return;
  const mined = await client.getTransactionCount({ address: EVM_ADDRESS_CODEC.parse(row.fromAddress), blockTag: 'latest' });
  if (mined >= row.nonce) return;
  const below = await db
    .select({ rawTx: settlementTxs.rawTx })
    .from(settlementTxs)
    .where(
      and(
        eq(settlementTxs.chainId, row.chainId),
        eq(settlementTxs.fromAddress, row.fromAddress),
        gte(settlementTxs.nonce, mined),
        lt(settlementTxs.nonce, row.nonce),
      ),
    )
    .orderBy(asc(settlementTxs.nonce))
    .limit(256);
  for (const b of below) await broadcastRaw(client, b.rawTx as Hex);
}

/** One past the highest nonce this settlement already recorded for the sender (0 if none). */
async function nextRecordedNonce(tx: Db, settlementId: string, from: string): Promise<number> {
  const [row] = await tx
    .select({ n: max(settlementTxs.nonce) })
    .from(settlementTxs)
    .where(and(eq(settlementTxs.settlementId, settlementId), eq(settlementTxs.fromAddress, from)));
  return row?.n === null || row?.n === undefined ? 0 : Number(row.n) + 1;
}

/**
 * Sends one settlement step exactly once: the transaction is signed with an
 * explicit nonce and recorded (nonce, hash, signed bytes) before broadcast;
 * a step already recorded is only rebroadcast and awaited, never re-signed.
 */
export async function sendRecordedTx(db: Db, client: PublicClient, input: RecordedTxInput): Promise<Row> {
  const recorded = await findRecordedTx(db, input.settlementId, input.step);
  if (recorded) return confirmRecordedTx(db, client, recorded);
  const { account } = input;
  const from = account.address.toLowerCase();
  const chainPending = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const row = await db.transaction(async (tx) => {
    // A deposit address sends its steps one after another: a node behind the previous step's block must not hand out its nonce again.
    const nonce = input.sharedSender
      ? await reserveNonce(tx, input.chainId, from, chainPending)
      : Math.max(chainPending, await nextRecordedNonce(tx, input.settlementId, from));
    const raw = await account.signTransaction({
      type: 'legacy',
      chainId: input.chainId,
      nonce,
      to: input.to,
      data: input.data,
      value: input.value,
      gas: input.gas,
      gasPrice: input.gasPrice,
    });
    const [inserted] = await tx
      .insert(settlementTxs)
      .values({
        id: newId('chainTx'),
        settlementId: input.settlementId,
        step: input.step,
        chainId: input.chainId,
        fromAddress: from,
        toAddress: input.to.toLowerCase(),
        nonce,
        txHash: keccak256(raw),
        rawTx: raw,
        value: input.recordValue,
      })
      .returning();
    return inserted!;
  });
  await input.beforeBroadcast?.();
  await broadcastRaw(client, row.rawTx as Hex);
  return confirmRecordedTx(db, client, row);
}
