import type { Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import { outbox } from '@/lib/events/outbox';
import type { EventType } from '@/lib/events/types';
import { runInvoiceEventHooks } from './invoice-event-hooks';
import { invoiceEventData } from './view';

export interface InvoiceEventItem {
  invoice: Invoice;
  type: EventType;
  txHashes: string[];
}

/**
 * Writes invoice events to the outbox in one statement, in the given order
 * (strictly increasing createdAt), with the spec's payload. Call it in the
 * transaction of the state change.
 */
export async function writeInvoiceEvents(tx: Db, items: InvoiceEventItem[]) {
  if (items.length === 0) return;
  await outbox.write(
    tx,
    outbox.orderedRows(
      items.map(({ invoice, type, txHashes }) => ({
        tenantId: invoice.tenantId,
        mode: invoice.mode,
        type,
        subjectId: invoice.id,
        data: invoiceEventData(invoice, txHashes),
      })),
    ),
  );
  // Other domains (storefront orders) react in this transaction, through the hooks lib/payment-hooks.ts installs.
  await runInvoiceEventHooks(
    tx,
    items.map((i) => ({ invoiceId: i.invoice.id, type: i.type })),
  );
}
