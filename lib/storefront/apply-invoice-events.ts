import { and, eq, inArray } from 'drizzle-orm';
import { orders } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { EventType } from '@/lib/events/types';
import { emitOrderEvent } from './emit-order-event';

/**
 * Called with the invoice events of a transaction: a confirmed invoice pays
 * its order (order.paid), an expired one cancels an unpaid order
 * (order.cancelled). Same transaction as the invoice change, so an order can
 * never be paid without its invoice being confirmed, or the reverse.
 */
export async function applyInvoiceEventsToOrders(tx: Db, items: { invoiceId: string; type: EventType }[]) {
  const paid = items.filter((i) => i.type === 'invoice.confirmed').map((i) => i.invoiceId);
  const expired = items.filter((i) => i.type === 'invoice.expired').map((i) => i.invoiceId);
  const now = new Date();
  if (paid.length) {
    const rows = await tx
      .update(orders)
      .set({ status: 'PAID', paidAt: now, updatedAt: now })
      .where(and(inArray(orders.invoiceId, paid), eq(orders.status, 'PENDING_PAYMENT')))
      .returning();
    for (const o of rows) await emitOrderEvent(tx, o, 'order.paid');
  }
  if (expired.length) {
    const rows = await tx
      .update(orders)
      .set({ status: 'CANCELLED', cancelReason: 'invoice_expired', cancelledAt: now, updatedAt: now })
      .where(and(inArray(orders.invoiceId, expired), eq(orders.status, 'PENDING_PAYMENT')))
      .returning();
    for (const o of rows) await emitOrderEvent(tx, o, 'order.cancelled');
  }
}
