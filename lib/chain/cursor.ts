import { and, eq, sql } from 'drizzle-orm';
import { chainCursors } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Network } from './network';

export interface Cursor {
  lastBlock: number;
  lastBlockHash: string;
  lastBlockTime: Date;
}

/** Block n as a node sees it (number, hash or TRON block id, time); throws when the node cannot say. */
export type BlockReader = (n: number) => Promise<Cursor>;

export async function loadCursor(db: Db, net: Pick<Network, 'mode' | 'chainId'>): Promise<Cursor | undefined> {
  const [row] = await db
    .select()
    .from(chainCursors)
    .where(and(eq(chainCursors.mode, net.mode), eq(chainCursors.chainId, net.chainId)));
  return row ? { lastBlock: row.lastBlock, lastBlockHash: row.lastBlockHash, lastBlockTime: row.lastBlockTime } : undefined;
}

/** Moves the cursor and remembers the block's hash for reorg detection; call in the scan's transaction. */
export async function saveCursor(tx: Db, net: Pick<Network, 'mode' | 'chainId'>, c: Cursor): Promise<void> {
  await tx
    .insert(chainCursors)
    .values({ mode: net.mode, chainId: net.chainId, ...c })
    .onConflictDoUpdate({
      target: [chainCursors.mode, chainCursors.chainId],
      set: { lastBlock: c.lastBlock, lastBlockHash: c.lastBlockHash, lastBlockTime: c.lastBlockTime, updatedAt: new Date() },
    });
  await tx.execute(sql`
    insert into chain_blocks (mode, chain_id, number, hash) values (${net.mode}, ${net.chainId}, ${c.lastBlock}, ${c.lastBlockHash})
    on conflict (mode, chain_id, number) do update set hash = excluded.hash`);
  // Keep a window far deeper than any BSC reorg; older hashes are never compared.
  if (c.lastBlock % 64 === 0) {
    await tx.execute(sql`delete from chain_blocks where mode = ${net.mode} and chain_id = ${net.chainId} and number < ${c.lastBlock - 512}`);
  }
}
