import { eq } from 'drizzle-orm';
import { exchangeOrders } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { checkPair } from './check-pair';
import { createRecordedOrder } from './create-recorded-order';
import { requireExchange } from './get-exchange';
import type { OrderInput } from './schemas';
import { ok, orderRecord } from './view';

/**
 * POST /v1/withdrawals/exchange/order (manual): creates the order and
 * returns it with its token. The balance is not touched; the caller sends
 * the deposit itself. Recorded (so details can be fetched) but not tracked.
 */
export async function createManualOrder(db: Db, owner: { tenantId: string; mode: Mode }, input: OrderInput) {
  const client = requireExchange(db, owner.mode, owner.tenantId);
  await checkPair(client, owner.mode, input);
  const { row, order } = await createRecordedOrder(db, client, owner, 'manual', input);
  await db.update(exchangeOrders).set({ state: 'open', nextCheckAt: null }).where(eq(exchangeOrders.id, row.id));
  return ok(orderRecord(order));
}
