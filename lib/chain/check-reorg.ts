import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { PublicClient } from 'viem';
import { chainBlocks, chainTransfers, heldPayments } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { RpcReadError } from './rpc-batch';
import type { BlockReader, Cursor } from './cursor';
import type { Network } from './network';

/**
 * Block n as the node sees it. Any failure throws, and so does a node without
 * the block (behind the others, or a chain that is shorter for now): neither
 * says anything about the block's hash.
 */
export async function blockAt(client: PublicClient, n: number): Promise<Cursor> {
  const b = await client.getBlock({ blockNumber: BigInt(n) });
  if (!b?.hash) throw new RpcReadError(`the node has no block ${n}`);
  return { lastBlock: n, lastBlockHash: b.hash, lastBlockTime: new Date(Number(b.timestamp) * 1000) };
}

/** A reorg found below the cursor: what the domain must roll back. */
export interface Reorg {
  /** The cursor block whose hash changed. */
  from: number;
  /** The newest stored block still canonical: the scan continues from here. */
  ancestor: Cursor;
  /** Each block above the ancestor that holds stored transfers (the invoices' or held ones), mapped to its hash now. */
  canonical: Map<number, string>;
}

/**
 * Reorg detection by hash comparison (anvil_reorg and many nodes emit no
 * `removed` logs): when the cursor block's hash changed, walk the stored
 * hashes down to the newest one still canonical. Returns what it found (null
 * when the cursor is still canonical); the caller rolls back (lib/chain
 * knows no invoices). `blockAt` reads from the network's node, whatever its family.
 *
 * Only a hash read from a node that has the block counts: a failed read or a
 * missing block (a lagging node, or a chain shorter than the cursor until it
 * grows back) throws before anything changes, and the next run looks again.
 */
export async function checkReorg(db: Db, net: Pick<Network, 'mode' | 'chainId'>, blockAt: BlockReader, cursor: Cursor): Promise<Reorg | null> {
  const current = await blockAt(cursor.lastBlock);
  if (current.lastBlockHash === cursor.lastBlockHash) return null;
  const stored = await db
    .select()
    .from(chainBlocks)
    .where(and(eq(chainBlocks.mode, net.mode), eq(chainBlocks.chainId, net.chainId), lt(chainBlocks.number, cursor.lastBlock)))
    .orderBy(desc(chainBlocks.number))
    .limit(512);
  let ancestor: Cursor | undefined;
  for (const s of stored) {
    const b = await blockAt(s.number);
    if (b.lastBlockHash === s.hash) {
      ancestor = b;
      break;
    }
  }
  if (!ancestor) {
    // Deeper than the kept window: rescan it all (unique transfers make that safe).
    const floor = Math.max(0, (stored.at(-1)?.number ?? cursor.lastBlock) - 1);
    log.error('reorg deeper than the stored block window', { mode: net.mode, chainId: net.chainId, from: cursor.lastBlock, to: floor });
    ancestor = await blockAt(floor);
  }
  const affected = await db
    .selectDistinct({ n: chainTransfers.blockNumber })
    .from(chainTransfers)
    .where(and(eq(chainTransfers.mode, net.mode), eq(chainTransfers.chainId, net.chainId), gt(chainTransfers.blockNumber, ancestor.lastBlock)));
  const held = await db
    .selectDistinct({ n: heldPayments.blockNumber })
    .from(heldPayments)
    .where(and(eq(heldPayments.mode, net.mode), eq(heldPayments.chainId, net.chainId), gt(heldPayments.blockNumber, ancestor.lastBlock)));
  const canonical = new Map<number, string>();
  for (const n of new Set([...affected, ...held].map((r) => r.n))) canonical.set(n, (await blockAt(n)).lastBlockHash);
  return { from: cursor.lastBlock, ancestor, canonical };
}
