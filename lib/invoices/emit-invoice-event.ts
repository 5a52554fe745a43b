import { asc, eq } from 'drizzle-orm';
import { chainTransfers, type Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { EventType } from '@/lib/events/types';
import { writeInvoiceEvents } from './write-invoice-events';

/** Writes one invoice event with the spec's payload; call it in the transaction of the state change. */
export async function emitInvoiceEvent(tx: Db, invoice: Invoice, type: EventType) {
  const rows = await tx
    .select({ txHash: chainTransfers.txHash })
    .from(chainTransfers)
    .where(eq(chainTransfers.invoiceId, invoice.id))
    .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex));
  await writeInvoiceEvents(tx, [{ invoice, type, txHashes: [...new Set(rows.map((r) => r.txHash))] }]);
}
