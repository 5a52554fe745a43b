import { and, eq, gt, inArray, ne } from 'drizzle-orm';
import { chainBlocks, chainTransfers, settlements } from '@/db/schema';
import type { Db } from '@/lib/db';
import { saveCursor, type Cursor } from '@/lib/chain/cursor';
import type { Network } from '@/lib/chain/network';
import { log } from '@/lib/log';
import { dropHeldPayments } from './drop-held-payments';
import { lockInvoice, OPEN_STATUSES, receivedTotal, statusForReceived, updateInvoice } from '@/lib/invoices/transitions';

/**
 * Reorg rollback to `ancestor` (the newest block whose hash still matches):
 * transfers above it whose block is no longer canonical are removed, their
 * invoices go back to the status their remaining transfers give (no event:
 * nothing was confirmed or credited), and the cursor moves back so the range
 * is rescanned. `canonical` maps each affected block number to its hash now.
 * Held payments of dropped blocks go the same way unless money moved on them (dropHeldPayments).
 */
export async function revertTransfers(db: Db, net: Pick<Network, 'mode' | 'chainId'>, ancestor: Cursor, canonical: Map<number, string>) {
  return db.transaction(async (tx) => {
    const above = await tx
      .select()
      .from(chainTransfers)
      .where(and(eq(chainTransfers.mode, net.mode), eq(chainTransfers.chainId, net.chainId), gt(chainTransfers.blockNumber, ancestor.lastBlock)))
      .for('update');
    const gone = above.filter((t) => canonical.get(t.blockNumber) !== t.blockHash);
    // An early sweep not finished (TRON, issue 44): its transfer goes like any other and the settlement is never
    // credited for it (finishSettlement's gate; early-sweep.ts). Every other settled transfer is kept, as before.
    const linked = [...new Set(gone.flatMap((t) => (t.settlementId ? [t.settlementId] : [])))];
    const early = new Set(
      linked.length
        ? (
            await tx
              .select({ id: settlements.id })
              .from(settlements)
              .where(and(inArray(settlements.id, linked), eq(settlements.sweptEarly, true), ne(settlements.status, 'completed')))
          ).map((r) => r.id)
        : [],
    );
    const finished = { has: (id: string) => !early.has(id) };
    const removable = gone.filter((t) => t.settlementId === null || !finished.has(t.settlementId));
    for (const t of gone) {
      // Credited means its sweep was final (buried under the required confirmations): only a deeper reorg gets here.
      if (t.settlementId !== null && finished.has(t.settlementId))
        log.error('settled transfer left the canonical chain', { transferId: t.id, txHash: t.txHash, settlementId: t.settlementId });
    }
    if (removable.length)
      await tx.delete(chainTransfers).where(
        inArray(
          chainTransfers.id,
          removable.map((t) => t.id),
        ),
      );
    for (const invoiceId of new Set(removable.map((t) => t.invoiceId))) {
      const invoice = await lockInvoice(tx, invoiceId);
      const received = await receivedTotal(tx, invoiceId);
      // CONFIRMED has no settlement yet (the fan-out moves it on), so it can still fall back.
      const reopen = OPEN_STATUSES.includes(invoice.status) || invoice.status === 'CONFIRMED';
      await updateInvoice(
        tx,
        invoiceId,
        reopen ? { amountReceived: received, ...statusForReceived(received, invoice) } : { amountReceived: received },
      );
    }
    const goneStrays = await dropHeldPayments(tx, net, ancestor, canonical, gone);
    await tx
      .delete(chainBlocks)
      .where(and(eq(chainBlocks.mode, net.mode), eq(chainBlocks.chainId, net.chainId), gt(chainBlocks.number, ancestor.lastBlock)));
    await saveCursor(tx, net, ancestor);
    return { removed: removable.length, ...goneStrays };
  });
}
