import { and, eq } from 'drizzle-orm';
import { exchangeOrders } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';
import { requireExchange } from './get-exchange';
import { recordOrderState } from './record-order-state';
import { toApiError } from './to-api-error';
import { ok, orderRecord } from './view';

/**
 * POST /v1/withdrawals/exchange/order/details: the order's current state
 * from the exchange. Only orders this tenant created through the gateway
 * (id and token must both match); what is learned is recorded as the tracker would.
 */
export async function getOrderDetails(db: Db, owner: { tenantId: string; mode: Mode }, input: { id: string; token: string }) {
  const [row] = await db
    .select()
    .from(exchangeOrders)
    .where(and(eq(exchangeOrders.exchangeId, input.id), eq(exchangeOrders.tenantId, owner.tenantId), eq(exchangeOrders.mode, owner.mode)));
  if (!row || row.token !== input.token) throw notFound('Exchange order');
  const client = requireExchange(db, owner.mode, owner.tenantId);
  try {
    const order = await client.order(row.exchangeId!, row.token!, { maxWaitMs: 10_000 });
    if (row.purpose !== 'manual') await recordOrderState(db, row, order);
    return ok(orderRecord(order));
  } catch (err) {
    return toApiError(err);
  }
}
