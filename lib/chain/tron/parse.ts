import { z } from 'zod';
import { TRANSFER_TOPIC, type TokenTransfer } from '../common/transfer';

/**
 * Parsers of java-tron's answers, checked against real responses from TRON's documentation
 * (parse.test.ts, fixtures/). A response that does not have the expected shape throws: a node
 * that answers something else is a failed read, never a default.
 */
const hex64 = z.string().regex(/^[0-9a-f]{64}$/i);
const qty = z.string().regex(/^0x[0-9a-f]+$/i);

export interface TronBlockRef {
  number: number;
  /** Block id, 64 hex digits (8-byte number + 24 bytes of hash), lower case, no 0x. */
  id: string;
  parentId: string;
  /** Milliseconds. */
  timestamp: number;
}

const walletBlock = z.object({
  blockID: hex64,
  block_header: z.object({
    // proto3 leaves out zero values: the genesis block has no `number`.
    raw_data: z.object({
      number: z.number().int().nonnegative().default(0),
      timestamp: z.number().int().nonnegative().default(0),
      parentHash: hex64,
    }),
  }),
  transactions: z.array(z.object({ txID: hex64 })).optional(),
});

/** `/wallet/getblock`, `getnowblock`, `getblockbynum` (and `/walletsolidity/…`): `{}` is "no such block" and throws. */
export function parseWalletBlock(raw: unknown): TronBlockRef & { txIds: string[] } {
  const b = walletBlock.parse(raw);
  const { number, timestamp, parentHash } = b.block_header.raw_data;
  const id = b.blockID.toLowerCase();
  if (parseInt(id.slice(0, 16), 16) !== number) throw new Error(`block id ${id} does not carry its number ${number}`);
  return { number, id, parentId: parentHash.toLowerCase(), timestamp, txIds: (b.transactions ?? []).map((t) => t.txID.toLowerCase()) };
}

const rpcBlock = z.object({
  number: qty,
  hash: z.string().regex(/^0x[0-9a-f]{64}$/i),
  parentHash: z.string().regex(/^0x[0-9a-f]{64}$/i),
  timestamp: qty,
});

/** JSON-RPC `eth_getBlockByNumber` (timestamps in seconds); `null` throws. */
export function parseRpcBlock(raw: unknown): TronBlockRef {
  const b = rpcBlock.parse(raw);
  return {
    number: Number(b.number),
    id: b.hash.slice(2).toLowerCase(),
    parentId: b.parentHash.slice(2).toLowerCase(),
    timestamp: Number(b.timestamp) * 1000,
  };
}

const rpcLog = z.object({
  address: z.string().regex(/^0x[0-9a-f]{40}$/i),
  topics: z.array(z.string()),
  data: z.string().regex(/^0x[0-9a-f]*$/i),
  blockNumber: qty,
  blockHash: z.string().regex(/^0x[0-9a-f]{64}$/i),
  transactionHash: z.string().regex(/^0x[0-9a-f]{64}$/i),
  logIndex: qty,
  blockTimestamp: qty.optional(),
  removed: z.boolean().optional(),
});

/**
 * A TRC-20 Transfer from a JSON-RPC log, in the stored forms: addresses as `41…` hex, ids without
 * 0x. Other events (and Transfer-named events with other layouts) give null.
 */
export function parseTransferLog(raw: unknown): (TokenTransfer & { token: string }) | null {
  // Other events are skipped before validation: a busy block carries many, and they are none of ours.
  const topics = (raw as { topics?: unknown })?.topics;
  if (!Array.isArray(topics) || topics.length !== 3 || String(topics[0]).toLowerCase() !== TRANSFER_TOPIC) return null;
  const l = rpcLog.parse(raw);
  return {
    token: `41${l.address.slice(2).toLowerCase()}`,
    txHash: l.transactionHash.slice(2).toLowerCase(),
    logIndex: Number(l.logIndex),
    blockNumber: Number(l.blockNumber),
    blockHash: l.blockHash.slice(2).toLowerCase(),
    blockTimestamp: l.blockTimestamp ? Number(l.blockTimestamp) : undefined,
    from: `41${l.topics[1]!.slice(-40).toLowerCase()}`,
    to: `41${l.topics[2]!.slice(-40).toLowerCase()}`,
    value: l.data === '0x' ? 0n : BigInt(l.data),
  };
}

const txInfo = z.object({
  id: hex64,
  fee: z.number().int().nonnegative().default(0),
  blockNumber: z.number().int().nonnegative(),
  blockTimeStamp: z.number().int().nonnegative(),
  receipt: z
    .object({
      result: z.string().optional(),
      energy_usage: z.number().optional(),
      energy_fee: z.number().optional(),
      energy_usage_total: z.number().optional(),
      net_usage: z.number().optional(),
      net_fee: z.number().optional(),
    })
    .default({}),
  result: z.literal('FAILED').optional(),
  resMessage: z.string().optional(),
  log: z.array(z.object({ address: z.string(), topics: z.array(z.string()), data: z.string().default('') })).default([]),
});

export interface TronTxInfo {
  txId: string;
  blockNumber: number;
  timestamp: number;
  /** Sun burned in all (bandwidth, energy, account creation). */
  fee: bigint;
  /** `SUCCESS`, or why the contract failed (`REVERT`, `OUT_OF_ENERGY`, …); system contracts carry none and succeed unless `FAILED`. */
  contractRet: string;
  ok: boolean;
  energyTotal: number;
  netUsage: number;
  message?: string;
  logs: { address: string; topics: string[]; data: string }[];
}

/** `/wallet(solidity)/gettransactioninfobyid`; the caller handles `{}` (unknown) before parsing. */
export function parseTxInfo(raw: unknown): TronTxInfo {
  const t = txInfo.parse(raw);
  const contractRet = t.receipt.result ?? (t.result === 'FAILED' ? 'FAILED' : 'SUCCESS');
  return {
    txId: t.id.toLowerCase(),
    blockNumber: t.blockNumber,
    timestamp: t.blockTimeStamp,
    fee: BigInt(t.fee),
    contractRet,
    ok: t.result !== 'FAILED' && contractRet === 'SUCCESS',
    energyTotal: t.receipt.energy_usage_total ?? 0,
    netUsage: t.receipt.net_usage ?? 0,
    message: t.resMessage ? Buffer.from(t.resMessage, 'hex').toString('utf8') : undefined,
    logs: t.log,
  };
}

/** True for the empty object java-tron answers for an unknown transaction or block. */
export const isEmptyAnswer = (raw: unknown) => !!raw && typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0;
