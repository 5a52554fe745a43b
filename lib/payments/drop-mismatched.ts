import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { chainTransfers, mismatchedPayments } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Cursor } from '@/lib/chain/cursor';
import type { Network } from '@/lib/chain/network';
import { log } from '@/lib/log';

/**
 * The mismatched payments of a reorg rollback (revertTransfers' transaction): those whose block left
 * the canonical chain. One nothing moved on (held, or resolved but not yet swept) is deleted, as the
 * invoice's unswept payments are: the rescan records it again, held, if it is mined again. One that
 * money moved on is kept and flagged (`reorgedAt`) for the merchant and the console: its sweep
 * (settlementId), its refund withdrawal (withdrawalId), or, for another network's payment counted
 * towards the invoice, the settled transfer it became (kept by revertTransfers too). Kept, its row
 * still holds the log's unique key, so the payment mined again is never a new held payment that
 * could be credited or sent back a second time (recordMismatched moves the row to its new block).
 * `goneTransfers` are the invoice transfers of the rollback whose blocks are gone.
 */
export async function dropMismatched(
  tx: Db,
  net: Pick<Network, 'mode' | 'chainId'>,
  ancestor: Cursor,
  canonical: Map<number, string>,
  goneTransfers: Pick<typeof chainTransfers.$inferSelect, 'txHash' | 'logIndex' | 'settlementId'>[],
): Promise<{ droppedMismatched: number; flaggedMismatched: number }> {
  const strays = await tx
    .select()
    .from(mismatchedPayments)
    .where(
      and(eq(mismatchedPayments.mode, net.mode), eq(mismatchedPayments.chainId, net.chainId), gt(mismatchedPayments.blockNumber, ancestor.lastBlock)),
    )
    .for('update');
  const gone = strays.filter((m) => canonical.get(m.blockNumber) !== m.blockHash);
  const settled = new Set(goneTransfers.filter((t) => t.settlementId !== null).map((t) => `${t.txHash}:${t.logIndex}`));
  const moved = gone.filter((m) => m.settlementId !== null || m.withdrawalId !== null || settled.has(`${m.txHash}:${m.logIndex}`));
  const drop = gone.filter((m) => !moved.includes(m)).map((m) => m.id);
  if (drop.length) await tx.delete(mismatchedPayments).where(inArray(mismatchedPayments.id, drop));
  for (const m of moved) {
    log.error('a resolved held payment left the canonical chain: kept and flagged', {
      paymentId: m.id,
      invoiceId: m.invoiceId,
      txHash: m.txHash,
      status: m.status,
      settlementId: m.settlementId,
      withdrawalId: m.withdrawalId,
    });
  }
  if (moved.length)
    await tx
      .update(mismatchedPayments)
      .set({ reorgedAt: new Date() })
      .where(
        and(
          inArray(
            mismatchedPayments.id,
            moved.map((m) => m.id),
          ),
          isNull(mismatchedPayments.reorgedAt),
        ),
      );
  return { droppedMismatched: drop.length, flaggedMismatched: moved.length };
}
