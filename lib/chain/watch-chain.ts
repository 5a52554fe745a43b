import type { PublicClient } from 'viem';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { confirmInvoices } from '@/lib/invoices/confirm-invoices';
import { blockAt, checkReorg } from './check-reorg';
import { publicClient } from './clients';
import { loadCursor, saveCursor, type Cursor } from './cursor';
import type { ReadyNetwork } from './network';
import { processTransferLogs } from './process-transfer-logs';
import { readRange } from './read-range';
import { isRangeLimitError } from './transfer-logs';

export interface WatchOptions {
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

// Current range per network, so a provider's limit found once is remembered between runs.
const ranges = new Map<string, number>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function initialCursor(db: Db, net: ReadyNetwork<'rpcUrl' | 'tokenAddress'>, client: PublicClient, head: number): Promise<Cursor> {
  const start = net.startBlock ?? Math.max(0, head - net.confirmations * 2);
  const c = await blockAt(client, Math.max(0, start - 1));
  await saveCursor(db, net, c);
  return c;
}

/**
 * One watcher run for a network: reorg check, then scan Transfer logs of the
 * token from the cursor to the head range by range, then the confirmation
 * pass. Never skips a block: a failing range is retried (smaller on limit
 * errors) and the cursor only moves with the range's transfers.
 */
export async function watchChain(db: Db, net: ReadyNetwork<'rpcUrl' | 'tokenAddress'>, opts: WatchOptions = {}) {
  const client = opts.client ?? publicClient(net.rpcUrl);
  const maxRange = opts.maxRange ?? 500;
  const key = `${net.mode}:${net.chainId}`;
  const head = Number(await client.getBlockNumber());
  let cursor = (await loadCursor(db, net)) ?? (await initialCursor(db, net, client, head));
  cursor = await checkReorg(db, net, client, cursor);
  let range = Math.min(ranges.get(key) ?? maxRange, maxRange);
  let scanned = 0;
  let matched = 0;
  let failures = 0;
  while (cursor.lastBlock < head && scanned < (opts.maxBlocks ?? 5_000) && !opts.signal?.aborted) {
    const from = cursor.lastBlock + 1;
    const to = Math.min(head, from + range - 1);
    try {
      // The range's last block is read with its logs (one node): if a reorg lands in between, the next run sees its hash change.
      const { toBlock, logs } = await readRange({ rpcUrl: opts.client ? undefined : net.rpcUrl, client }, net.tokenAddress, from, to);
      if (logs.some((l) => Number(l.blockNumber) === to && l.blockHash !== toBlock.lastBlockHash)) continue;
      const res = await processTransferLogs(db, net, {
        logs,
        to: toBlock,
        blockTime: async (n) => Math.floor((await blockAt(client, n)).lastBlockTime.getTime() / 1000),
      });
      matched += res.inserted;
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
      log.warn('chain scan failed; retrying', { mode: net.mode, chainId: net.chainId, from, to, range, backoff, error: String((err as Error).message ?? err).slice(0, 300) });
      await sleep(backoff);
    }
    ranges.set(key, range);
  }
  const confirmed = await confirmInvoices(db, net, cursor.lastBlock);
  return { head, cursor: cursor.lastBlock, scanned, matched, confirmed };
}
