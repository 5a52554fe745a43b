import { and, eq, inArray } from 'drizzle-orm';
import { orders, products, type OrderItem } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { Network } from '@/lib/chain/network';
import { newId } from '@/lib/ids';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { STORE_RAIL } from './store-currency';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { emitOrderEvent } from './emit-order-event';
import { assertOpenOrderRoom, storeOrderLimits, throttleOrderCreation, type StoreOrderLimits } from '@/lib/rate-limits/order-limits';
import type { CreateOrderInput } from './schemas';
import { orderView } from './views';

/** Minutes a storefront customer has to pay. */
export const ORDER_PAYMENT_MINUTES = 30;

/** The largest order total: what one invoice may ask for. */
export const MAX_ORDER_TOTAL = '1000000000';

/**
 * Places an order for active products of the tenant and mode and creates the
 * invoice the customer pays, in one transaction with order.created (the
 * invoice writes invoice.created). Prices are snapshotted into the order.
 * Throttled per store and, from the public store page, per client address
 * (lib/rate-limits/order-limits.ts); a store holds at most so many unpaid orders.
 */
export async function createOrder(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  network: Pick<Network, 'chain' | 'chainId' | 'confirmations'> & { depositMnemonic: string },
  input: CreateOrderInput,
  opts: { clientAddress?: string; limits?: StoreOrderLimits } = {},
) {
  const limits = opts.limits ?? storeOrderLimits();
  await throttleOrderCreation(db, owner, opts.clientAddress ?? null, limits);
  const ids = [...new Set(input.items.map((i) => i.productId))];
  const found = await db
    .select()
    .from(products)
    .where(and(eq(products.tenantId, owner.tenantId), eq(products.mode, owner.mode), inArray(products.id, ids)));
  const byId = new Map(found.map((p) => [p.id, p]));
  const details = input.items.flatMap((item, i) => {
    const p = byId.get(item.productId);
    if (!p) return [{ path: `items.${i}.productId`, message: 'no such product' }];
    if (!p.active) return [{ path: `items.${i}.productId`, message: 'this product is not for sale' }];
    return [];
  });
  if (details.length) throw new ApiError('validation_failed', `Invalid order: ${details[0]!.path}: ${details[0]!.message}`, details);

  const items: OrderItem[] = input.items.map((item) => {
    const p = byId.get(item.productId)!;
    const unit = new Decimal(p.price);
    return { productId: p.id, name: p.name, unitPrice: unit.toFixed(2), quantity: item.quantity, amount: unit.times(item.quantity).toFixed(2) };
  });
  const total = items.reduce((s, i) => s.plus(i.amount), new Decimal(0));
  if (total.lte(0)) throw new ApiError('invalid_amount', 'The order total must be greater than 0.');
  if (total.gt(MAX_ORDER_TOTAL)) {
    throw new ApiError(
      'invalid_amount',
      `The order total (${total.toFixed(2)} USDT) is above the largest allowed, ${MAX_ORDER_TOTAL} USDT; order fewer items.`,
      [{ path: 'items', message: `total above ${MAX_ORDER_TOTAL} USDT` }],
    );
  }
  const orderId = newId('order');

  return db.transaction(async (tx) => {
    const invoice = await createInvoice(
      tx,
      owner,
      network,
      CreateInvoiceBody.parse({
        amount: total.toFixed(2),
        // Named, not defaulted: the store page tells the customer this rail.
        chain: STORE_RAIL.chain,
        token: STORE_RAIL.token,
        externalId: orderId,
        description: `Order ${orderId}: ${items.map((i) => `${i.quantity} × ${i.name}`).join(', ')}`.slice(0, 1000),
        metadata: { orderId },
        expiresInMinutes: ORDER_PAYMENT_MINUTES,
      }),
    );
    const [row] = await tx
      .insert(orders)
      .values({ id: orderId, ...owner, items, total: total.toFixed(2), customerEmail: input.customerEmail.toLowerCase(), invoiceId: invoice.id })
      .returning();
    await emitOrderEvent(tx, row!, 'order.created');
    await assertOpenOrderRoom(tx, owner, limits.maxOpenOrders); // last: the per-store lock is held only to commit
    return orderView(row!, invoice.checkoutUrl);
  });
}
