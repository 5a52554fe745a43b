import { and, count, desc, eq } from 'drizzle-orm';
import { orders } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/api/errors';
import { pageMeta } from '@/lib/api/schemas';
import type { Mode } from '@/lib/mode';
import { emitOrderEvent } from './emit-order-event';
import { orderView } from './views';
import type { OrderStatus } from '@/db/schema/storefront';

type Owner = { tenantId: string; mode: Mode };

export async function getOrderOrThrow(db: Db, where: Owner & { id: string }, opts: { forUpdate?: boolean } = {}) {
  const q = db
    .select()
    .from(orders)
    .where(and(eq(orders.id, where.id), eq(orders.tenantId, where.tenantId), eq(orders.mode, where.mode)));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('Order');
  return row;
}

export async function listOrders(db: Db, owner: Owner, q: { page: number; limit: number; status?: OrderStatus }) {
  const where = and(eq(orders.tenantId, owner.tenantId), eq(orders.mode, owner.mode), q.status ? eq(orders.status, q.status) : undefined);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { data: rows.map((o) => orderView(o)), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}

/** PAID → FULFILLED with order.fulfilled. Fulfilling twice is harmless. */
export async function fulfillOrder(db: Db, where: Owner & { id: string }) {
  return db.transaction(async (tx) => {
    const o = await getOrderOrThrow(tx, where, { forUpdate: true });
    if (o.status === 'FULFILLED') return orderView(o);
    if (o.status !== 'PAID') throw new ApiError('invalid_state', `Only paid orders can be fulfilled; this one is ${o.status}.`);
    const [row] = await tx
      .update(orders)
      .set({ status: 'FULFILLED', fulfilledAt: new Date(), updatedAt: new Date() })
      .where(eq(orders.id, o.id))
      .returning();
    await emitOrderEvent(tx, row!, 'order.fulfilled');
    return orderView(row!);
  });
}

/**
 * PENDING_PAYMENT → CANCELLED with order.cancelled. A paid order cannot be
 * cancelled here (its money is already in the balance; refunds are a
 * withdrawal the merchant makes). Cancelling twice is harmless.
 */
export async function cancelOrder(db: Db, where: Owner & { id: string }) {
  return db.transaction(async (tx) => {
    const o = await getOrderOrThrow(tx, where, { forUpdate: true });
    if (o.status === 'CANCELLED') return orderView(o);
    if (o.status !== 'PENDING_PAYMENT') throw new ApiError('invalid_state', `Only unpaid orders can be cancelled; this one is ${o.status}.`);
    const now = new Date();
    const [row] = await tx
      .update(orders)
      .set({ status: 'CANCELLED', cancelReason: 'cancelled_by_merchant', cancelledAt: now, updatedAt: now })
      .where(eq(orders.id, o.id))
      .returning();
    await emitOrderEvent(tx, row!, 'order.cancelled');
    return orderView(row!);
  });
}
