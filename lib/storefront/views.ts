import type { Order, Product } from '@/db/schema';
import { isoOrNull } from '@/lib/api/schemas';
import { checkoutPath } from '@/lib/invoices/claim-token';
import { formatAmount } from '@/lib/money';
import type { OrderView } from './schemas';
import type { OrderEventDataView } from '@/lib/events/payloads';

export function productView(p: Product) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price: formatAmount(p.price),
    imageUrl: p.imageUrl,
    active: p.active,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/**
 * An order as the API shows it. `checkoutUrl` is the bare checkout page (payment only, no refund form), except in
 * the create response, which passes the invoice's URL with the payer's claim token (shown once).
 */
export function orderView(o: Order, checkoutUrl = checkoutPath(o.invoiceId)): OrderView {
  return {
    id: o.id,
    status: o.status,
    items: o.items,
    total: formatAmount(o.total),
    customerEmail: o.customerEmail,
    invoiceId: o.invoiceId,
    checkoutUrl,
    cancelReason: o.cancelReason,
    paidAt: isoOrNull(o.paidAt),
    fulfilledAt: isoOrNull(o.fulfilledAt),
    cancelledAt: isoOrNull(o.cancelledAt),
    createdAt: o.createdAt.toISOString(),
  };
}

/** Data of order.* events: id, status, items, total, customer email, invoiceId. */
export function orderEventData(o: Order): OrderEventDataView {
  const v = orderView(o);
  return {
    id: v.id,
    status: v.status,
    items: v.items,
    total: v.total,
    customerEmail: v.customerEmail,
    invoiceId: v.invoiceId,
    createdAt: v.createdAt,
  };
}
