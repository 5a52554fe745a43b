import type { PublicClient } from 'viem';
import { log } from '@/lib/log';
import { blockAt } from './check-reorg';
import type { Cursor } from './cursor';
import { tokensOf, type ReadyNetwork } from './network';
import { readRange } from './read-range';
import { isRangeLimitError, type RpcLog } from './transfer-logs';

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
  logs: RpcLog[];
  /** The range's last block: becomes the cursor. */
  to: Cursor;
  /** Timestamp (seconds) of a block, for matched logs that carry none. */
  blockTime: (blockNumber: number) => Promise<number>;
}

/** Records one range and moves the cursor to `range.to` in the same transaction; returns how many transfers it kept. */
export type RecordRange = (range: ScannedRange) => Promise<number>;

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
  net: ReadyNetwork<'rpcUrl' | 'tokenAddress'>,
  client: PublicClient,
  start: Cursor,
  head: number,
  record: RecordRange,
  opts: ScanOptions = {},
) {
  const maxRange = opts.maxRange ?? 500;
  // Every enabled token of the network in one call: a payment in another of them is found too.
  const tokens = tokensOf(net).map((t) => t.address);
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
      // The range's last block is read with its logs (one node): if a reorg lands in between, the next run sees its hash change.
      const { toBlock, logs } = await readRange({ rpcUrl: opts.client ? undefined : net.rpcUrl, client }, tokens, from, to);
      if (logs.some((l) => Number(l.blockNumber) === to && l.blockHash !== toBlock.lastBlockHash)) continue;
      matched += await record({
        logs,
        to: toBlock,
        blockTime: async (n) => Math.floor((await blockAt(client, n)).lastBlockTime.getTime() / 1000),
      });
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
