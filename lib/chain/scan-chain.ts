import type { PublicClient } from 'viem';
import { log } from '@/lib/log';
import { blockAt } from './check-reorg';
import type { Cursor } from './cursor';
import { tokensOf, type EvmNetwork, type Network, type ReadyNetwork } from './network';
import { readRange } from './read-range';
import { decodeTransfers, isRangeLimitError, type ScannedTransfer } from './transfer-logs';

export interface ScanOptions {
  /** Largest block range per eth_getLogs; halved on range-limit errors, grown back after successes. */
  maxRange?: number;
  /** Most blocks one call scans before returning (the job runs again soon). */
  maxBlocks?: number;
  /** Retries of one range on other RPC errors before giving up this run (the cursor stays put). */
  maxRetries?: number;
  baseBackoffMs?: number;
  signal?: AbortSignal;
  client?: PublicClient;
}

/** One block range as read from the node: what the scan found, for the domain to record. */
export interface ScannedRange {
  /**
   * The range's Transfers of the network's tokens, decoded, in either family's stored forms (addresses and token
   * lower-case `0x…` on EVM, `41…` on TRON): the domain matches them without knowing the family.
   */
  transfers: ScannedTransfer[];
  /** The range's last block: becomes the cursor. */
  to: Cursor;
  /** Timestamp (seconds) of a block, for matched transfers that carry none. */
  blockTime: (blockNumber: number) => Promise<number>;
}

/** Records one range and moves the cursor to `range.to` in the same transaction; returns how many transfers it kept. */
export type RecordRange = (range: ScannedRange) => Promise<number>;

/** Reads one range [from, to] from the network's node: its transfers and its last block, from one node. */
export type ReadRange = (from: number, to: number) => Promise<Omit<ScannedRange, 'blockTime'>>;

// Current range per network, so a provider's limit found once is remembered between runs.
const ranges = new Map<string, number>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Reads the network's tokens' Transfer logs from `start` up to `head` range by range and
 * hands each range to `record` (the domain's writer; the chain adapter knows no
 * invoices). Never skips a block: a failing range (read or record) is retried,
 * smaller on limit errors, and the cursor only moves with a recorded range.
 */
export async function scanChain(
  net: ReadyNetwork<'rpcUrl' | 'tokenAddress', EvmNetwork>,
  client: PublicClient,
  start: Cursor,
  head: number,
  record: RecordRange,
  opts: ScanOptions = {},
) {
  // Every enabled token of the network in one call: a payment in another of them is found too.
  const tokens = tokensOf(net).map((t) => t.address);
  const read: ReadRange = async (from, to) => {
    // The range's last block is read with its logs (one node): if a reorg lands in between, the next run sees its hash change.
    const { toBlock, logs } = await readRange({ rpcUrl: opts.client ? undefined : net.rpcUrl, client }, tokens, from, to);
    // Decoded by hand here (lib/chain/transfer-logs.ts): thousands per block on a busy chain.
    return { to: toBlock, transfers: decodeTransfers(logs) };
  };
  const blockTime = async (n: number) => Math.floor((await blockAt(client, n)).lastBlockTime.getTime() / 1000);
  return scanRanges(net, start, head, read, blockTime, record, opts);
}

/**
 * The scan loop of every family: ranges from `start` to `head` read by `read`, each recorded before the
 * next; a range-limit error halves the range, other errors are retried `maxRetries` times, then thrown.
 */
export async function scanRanges(
  net: Pick<Network, 'mode' | 'chainId'>,
  start: Cursor,
  head: number,
  read: ReadRange,
  blockTime: ScannedRange['blockTime'],
  record: RecordRange,
  opts: Omit<ScanOptions, 'client'> = {},
) {
  const maxRange = opts.maxRange ?? 500;
  const key = `${net.mode}:${net.chainId}`;
  let cursor = start;
  let range = Math.min(ranges.get(key) ?? maxRange, maxRange);
  let scanned = 0;
  let matched = 0;
  let failures = 0;
  while (cursor.lastBlock < head && scanned < (opts.maxBlocks ?? 5_000) && !opts.signal?.aborted) {
    const from = cursor.lastBlock + 1;
    const to = Math.min(head, from + range - 1);
    try {
      const { to: toBlock, transfers } = await read(from, to);
      if (transfers.some((t) => t.blockNumber === to && t.blockHash !== toBlock.lastBlockHash)) continue;
      matched += await record({ transfers, to: toBlock, blockTime });
      scanned += to - from + 1;
      cursor = toBlock;
      failures = 0;
      range = Math.min(maxRange, range * 2);
    } catch (err) {
      failures++;
      const limited = isRangeLimitError(err) && range > 1;
      if (limited) range = Math.max(1, Math.floor(range / 2));
      else if (failures > (opts.maxRetries ?? 5)) throw err;
      const backoff = Math.min(10_000, (opts.baseBackoffMs ?? 200) * 2 ** Math.min(failures - 1, 6));
      log.warn('chain scan failed; retrying', {
        mode: net.mode,
        chainId: net.chainId,
        from,
        to,
        range,
        backoff,
        error: String((err as Error).message ?? err).slice(0, 300),
      });
      await sleep(backoff);
    }
    ranges.set(key, range);
  }
  return { cursor, scanned, matched };
}
