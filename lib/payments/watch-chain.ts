import { blockAt, checkReorg } from '@/lib/chain/check-reorg';
import { publicClient } from '@/lib/chain/clients';
import type { EvmNetwork, ReadyNetwork } from '@/lib/chain/network';
import { openCursor } from '@/lib/chain/open-cursor';
import { scanChain, type ScanOptions } from '@/lib/chain/scan-chain';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { confirmInvoices } from './confirm-invoices';
import { recordTransfers } from './record-transfers';
import { revertTransfers } from './revert-transfers';

/** Scan tuning and, in tests, the client to read with. */
export type WatchOptions = ScanOptions;

/**
 * One watcher run for a network, the invoices pipeline's watch step: the chain
 * adapter reports a reorg (rolled back here), then scans Transfer logs from the
 * cursor to the head range by range (each range recorded here, cursor in the
 * same transaction), then the confirmation pass.
 */
export async function watchChain(db: Db, net: ReadyNetwork<'rpcUrl' | 'tokenAddress', EvmNetwork>, opts: WatchOptions = {}) {
  const client = opts.client ?? publicClient(net.rpcUrl);
  const head = Number(await client.getBlockNumber());
  const readBlock = (n: number) => blockAt(client, n);
  let cursor = await openCursor(db, net, readBlock, head);
  const reorg = await checkReorg(db, net, readBlock, cursor);
  if (reorg) {
    const { removed } = await revertTransfers(db, net, reorg.ancestor, reorg.canonical);
    log.warn('reorg handled', { mode: net.mode, chainId: net.chainId, from: reorg.from, ancestor: reorg.ancestor.lastBlock, removed });
    cursor = reorg.ancestor;
  }
  const scan = await scanChain(net, client, cursor, head, async (range) => (await recordTransfers(db, net, range)).inserted, opts);
  const confirmed = await confirmInvoices(db, net, scan.cursor.lastBlock);
  return { head, cursor: scan.cursor.lastBlock, scanned: scan.scanned, matched: scan.matched, confirmed };
}
