import type { Db } from '@/lib/db';
import { loadCursor, saveCursor, type BlockReader, type Cursor } from './cursor';
import type { Network } from './network';

/**
 * The network's scan cursor; on the first run it starts at `startBlock` (or
 * two confirmation windows below the head) and is saved at once. `blockAt`
 * reads a block from the network's node (any family).
 */
export async function openCursor(
  db: Db,
  net: Pick<Network, 'mode' | 'chainId' | 'startBlock' | 'confirmations'>,
  blockAt: BlockReader,
  head: number,
): Promise<Cursor> {
  const saved = await loadCursor(db, net);
  if (saved) return saved;
  const start = net.startBlock ?? Math.max(0, head - net.confirmations * 2);
  const c = await blockAt(Math.max(0, start - 1));
  await saveCursor(db, net, c);
  return c;
}
