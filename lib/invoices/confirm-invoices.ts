import { and, asc, eq, inArray } from 'drizzle-orm';
import { chainTransfers, invoices } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Network } from '@/lib/chain/network';
import { Decimal } from '@/lib/money';
import { emitInvoiceEvent } from './emit-invoice-event';
import { lockInvoice, paidThreshold, updateInvoice } from './transitions';

/**
 * DETECTED or OVERPAID invoices whose transfers that make the total reach the
 * paid threshold (expected less the tolerance) have `confirmationsRequired` blocks on top of them, counted
 * up to `height` (the watcher's cursor: every block up to it was checked for
 * reorgs), become CONFIRMED with invoice.confirmed.
 */
export async function confirmInvoices(db: Db, net: Pick<Network, 'mode' | 'chainId'>, height: number): Promise<number> {
  const candidates = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.chainId, net.chainId), eq(invoices.mode, net.mode), inArray(invoices.status, ['DETECTED', 'OVERPAID'])));
  let confirmed = 0;
  for (const inv of candidates) {
    const transfers = await db
      .select({ amount: chainTransfers.amount, blockNumber: chainTransfers.blockNumber })
      .from(chainTransfers)
      .where(eq(chainTransfers.invoiceId, inv.id))
      .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex));
    let sum = new Decimal(0);
    // The transfer that made it paid: within the underpayment tolerance counts (the same threshold as the status).
    const threshold = paidThreshold(inv);
    const reaching = transfers.find((t) => (sum = sum.add(t.amount)).gte(threshold));
    if (!reaching || height - reaching.blockNumber < inv.confirmationsRequired) continue;
    const done = await db.transaction(async (tx) => {
      const locked = await lockInvoice(tx, inv.id);
      if (locked.status !== 'DETECTED' && locked.status !== 'OVERPAID') return false;
      const row = await updateInvoice(tx, inv.id, { status: 'CONFIRMED' });
      await emitInvoiceEvent(tx, row, 'invoice.confirmed');
      return true;
    });
    if (done) confirmed++;
  }
  return confirmed;
}
