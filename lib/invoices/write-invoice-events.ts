import { events, type Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { EventType } from '@/lib/events/types';
import { newId } from '@/lib/ids';
import { runInvoiceEventHooks } from './invoice-event-hooks';
import { invoiceEventData } from './view';

export interface InvoiceEventItem {
  invoice: Invoice;
  type: EventType;
  txHashes: string[];
}

// Strictly increasing milliseconds per process: events written in one transaction
// (detected then partial) keep their order in createdAt and in their time-sorted ids.
let last = 0;
const tick = () => (last = Math.max(Date.now(), last + 1));

/**
 * Writes invoice events to the outbox in one statement, in the given order,
 * with the spec's payload. Call it in the transaction of the state change.
 */
export async function writeInvoiceEvents(tx: Db, items: InvoiceEventItem[]) {
  if (items.length === 0) return;
  await tx.insert(events).values(
    items.map(({ invoice, type, txHashes }) => {
      const at = tick();
      return {
        id: newId('event', at),
        tenantId: invoice.tenantId,
        mode: invoice.mode,
        type,
        subjectId: invoice.id,
        data: invoiceEventData(invoice, txHashes),
        createdAt: new Date(at),
      };
    }),
  );
  // Other domains (storefront orders) react in this transaction, through the hooks lib/payment-hooks.ts installs.
  await runInvoiceEventHooks(tx, items.map((i) => ({ invoiceId: i.invoice.id, type: i.type })));
}
