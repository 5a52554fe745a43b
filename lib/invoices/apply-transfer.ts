import { eq } from 'drizzle-orm';
import { chainTransfers } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitInvoiceEvent } from './emit-invoice-event';
import { lockInvoice, OPEN_STATUSES, receivedTotal, statusForReceived, UNPAID_STATUSES, updateInvoice } from './transitions';

type Transfer = typeof chainTransfers.$inferSelect;

/**
 * A newly seen transfer (0 confirmations) moves its invoice, in the watcher's
 * transaction:
 * - unpaid and already past expiresAt by chain time: EXPIRED first (invoice.expired);
 * - open: invoice.detected, then by total received PARTIALLY_PAID (invoice.partial),
 *   DETECTED, or OVERPAID (invoice.overpaid);
 * - EXPIRED: invoice.late_payment; CONFIRMED or later: invoice.overpaid. Status
 *   unchanged; the transfer is flagged late and swept by a settlement of its own.
 */
export async function applyTransfer(tx: Db, transfer: Transfer) {
  let invoice = await lockInvoice(tx, transfer.invoiceId);
  if (UNPAID_STATUSES.includes(invoice.status) && transfer.blockTime > invoice.expiresAt) {
    invoice = await updateInvoice(tx, invoice.id, { status: 'EXPIRED' });
    await emitInvoiceEvent(tx, invoice, 'invoice.expired');
  }
  const received = await receivedTotal(tx, invoice.id);
  if (OPEN_STATUSES.includes(invoice.status)) {
    const status = statusForReceived(received, invoice.amountExpected);
    invoice = await updateInvoice(tx, invoice.id, { status, amountReceived: received });
    await emitInvoiceEvent(tx, invoice, 'invoice.detected');
    if (status === 'PARTIALLY_PAID') await emitInvoiceEvent(tx, invoice, 'invoice.partial');
    if (status === 'OVERPAID') await emitInvoiceEvent(tx, invoice, 'invoice.overpaid');
    return invoice;
  }
  await tx.update(chainTransfers).set({ late: true }).where(eq(chainTransfers.id, transfer.id));
  invoice = await updateInvoice(tx, invoice.id, { amountReceived: received });
  await emitInvoiceEvent(tx, invoice, invoice.status === 'EXPIRED' ? 'invoice.late_payment' : 'invoice.overpaid');
  return invoice;
}
