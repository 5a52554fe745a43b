import { asc, eq } from 'drizzle-orm';
import { chainTransfers, type Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/emit-event';
import type { EventType } from '@/lib/events/types';
import { invoiceEventData } from './view';

/** Writes an invoice event with the spec's payload; call it in the transaction of the state change. */
export async function emitInvoiceEvent(tx: Db, invoice: Invoice, type: EventType) {
  const rows = await tx
    .select({ txHash: chainTransfers.txHash })
    .from(chainTransfers)
    .where(eq(chainTransfers.invoiceId, invoice.id))
    .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex));
  const txHashes = [...new Set(rows.map((r) => r.txHash))];
  return emitEvent(tx, { tenantId: invoice.tenantId, mode: invoice.mode, type, subjectId: invoice.id, data: invoiceEventData(invoice, txHashes) });
}
