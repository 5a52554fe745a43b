import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import { chainTransfers, heldPayments } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Cursor } from '@/lib/chain/cursor';
import type { Network } from '@/lib/chain/network';
import { log } from '@/lib/log';

/**
 * The held payments of a reorg rollback (revertTransfers' transaction): those whose block left
 * the canonical chain. One nothing moved on (held, or resolved but not yet swept) is deleted, as the
 * invoice's unswept payments are: the rescan records it again, held, if it is mined again. One that
 * money moved on is kept and flagged (`reorgedAt`) for the merchant and the console: its sweep
 * (settlementId), its refund withdrawal (withdrawalId), or, for another network's payment counted
 * towards the invoice, the settled transfer it became (kept by revertTransfers too). Kept, its row
 * still holds the log's unique key, so the payment mined again is never a new held payment that
 * could be credited or sent back a second time (recordHeldPayment moves the row to its new block).
 * `goneTransfers` are the invoice transfers of the rollback whose blocks are gone.
 */
export async function dropHeldPayments(
  tx: Db,
  net: Pick<Network, 'mode' | 'chainId'>,
  ancestor: Cursor,
  canonical: Map<number, string>,
  goneTransfers: Pick<typeof chainTransfers.$inferSelect, 'txHash' | 'logIndex' | 'settlementId'>[],
): Promise<{ droppedHeld: number; flaggedHeld: number }> {
  const strays = await tx
    .select()
    .from(heldPayments)
    .where(and(eq(heldPayments.mode, net.mode), eq(heldPayments.chainId, net.chainId), gt(heldPayments.blockNumber, ancestor.lastBlock)))
    .for('update');
  const gone = strays.filter((m) => canonical.get(m.blockNumber) !== m.blockHash);
  const settled = new Set(goneTransfers.filter((t) => t.settlementId !== null).map((t) => `${t.txHash}:${t.logIndex}`));
  const moved = gone.filter((m) => m.settlementId !== null || m.withdrawalId !== null || settled.has(`${m.txHash}:${m.logIndex}`));
  const drop = gone.filter((m) => !moved.includes(m)).map((m) => m.id);
  if (drop.length) await tx.delete(heldPayments).where(inArray(heldPayments.id, drop));
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
      .update(heldPayments)
      .set({ reorgedAt: new Date() })
      .where(
        and(
          inArray(
            heldPayments.id,
            moved.map((m) => m.id),
          ),
          isNull(heldPayments.reorgedAt),
        ),
      );
  return { droppedHeld: drop.length, flaggedHeld: moved.length };
}
