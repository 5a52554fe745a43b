import { checkReorg } from '@/lib/chain/check-reorg';
import { saveFinalBlock, type Cursor } from '@/lib/chain/cursor';
import { tokensOf, type ReadyNetwork, type TronNetwork } from '@/lib/chain/network';
import { openCursor } from '@/lib/chain/open-cursor';
import { scanRanges, type ScanOptions } from '@/lib/chain/scan-chain';
import type { TronNodeClient } from '@/lib/chain/tron/node-client';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import type { TronBlockRef } from '@/lib/chain/tron/parse';
import { readTronBlock, readTronHeads, readTrc20Transfers, type TronHeads } from '@/lib/chain/tron/read-chain';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { confirmInvoices } from './confirm-invoices';
import { recordTransfers } from './record-transfers';
import { revertTransfers } from './revert-transfers';

export interface TronWatchOptions extends Omit<ScanOptions, 'client'> {
  /** The node to read (tests: a fault proxy); default `tronClientOf(net, TRON_READ_TIMEOUT_MS)`. */
  client?: TronNodeClient;
  /** Heads already read this poll (the loop reads them to skip idle passes). */
  heads?: TronHeads;
}

/** How long one TRON node read may take: a hung node fails the run (retried next poll), it never stalls it. */
export const TRON_READ_TIMEOUT_MS = 10_000;

/** A TRON block as the cursor keeps it: the block id (64 hex digits) is its hash. */
const cursorOf = (b: TronBlockRef): Cursor => ({ lastBlock: b.number, lastBlockHash: b.id, lastBlockTime: new Date(b.timestamp) });

/**
 * One watcher run for a TRON network (docs/tron.md §3), the same steps as the EVM one (watch-chain.ts)
 * through the TRON adapter: heads (head and solidified block, one JSON-RPC batch), the cursor, a reorg
 * check by block id (rolled back as on EVM), TRC-20 Transfers scanned range by range to the head (so a
 * payment is DETECTED within a block) and recorded by the family-neutral recordTransfers, then the
 * confirmation pass: a payment confirms once it is `confirmationsRequired` below the cursor and at or
 * below `heads.confirmed` = min(solidified, head − confirmations), never before the chain holds it
 * irreversible. Every failed read throws; the cursor only moves with a recorded range.
 */
export async function watchTron(db: Db, net: ReadyNetwork<'rpcUrl' | 'tokenAddress', TronNetwork>, opts: TronWatchOptions = {}) {
  const client = opts.client ?? tronClientOf(net, TRON_READ_TIMEOUT_MS);
  const heads = opts.heads ?? (await readTronHeads(client, net.confirmations));
  const head = heads.head.number;
  const readBlock = async (n: number) => cursorOf(await readTronBlock(client, n));
  let cursor = await openCursor(db, net, readBlock, head);
  const reorg = await checkReorg(db, net, readBlock, cursor);
  if (reorg) {
    const { removed } = await revertTransfers(db, net, reorg.ancestor, reorg.canonical);
    log.warn('reorg handled', { mode: net.mode, chainId: net.chainId, from: reorg.from, ancestor: reorg.ancestor.lastBlock, removed });
    cursor = reorg.ancestor;
  }
  const tokens = tokensOf(net).map((t) => t.address);
  const scan = await scanRanges(
    net,
    cursor,
    head,
    async (from, to) => {
      const { toBlock, transfers } = await readTrc20Transfers(client, { tokens, from, to });
      return { to: cursorOf(toBlock), transfers };
    },
    async (n) => Math.floor((await readTronBlock(client, n)).timestamp / 1000),
    async (range) => (await recordTransfers(db, net, range)).inserted,
    opts,
  );
  // The settlement fan-out sweeps late payments against the cursor: it must not go above the solidified block either.
  await saveFinalBlock(db, net, Math.min(heads.solid.number, scan.cursor.lastBlock));
  const confirmed = await confirmInvoices(db, net, scan.cursor.lastBlock, { final: heads.confirmed });
  return { head, solidified: heads.solid.number, cursor: scan.cursor.lastBlock, scanned: scan.scanned, matched: scan.matched, confirmed };
}
