import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import { addressGroup } from '@/lib/http/address-group';
import type { Mode } from '@/lib/mode';

export interface StoreOrderLimits {
  perAddressPerMinute: number;
  perStorePerMinute: number;
  maxOpenOrders: number;
}

export const storeOrderLimits = (): StoreOrderLimits => {
  const e = env();
  return {
    perAddressPerMinute: e.STORE_ORDERS_PER_ADDRESS_PER_MINUTE,
    perStorePerMinute: e.STORE_ORDERS_PER_STORE_PER_MINUTE,
    maxOpenOrders: e.STORE_MAX_OPEN_ORDERS,
  };
};

/** Counts one creation in the bucket's current minute; returns the count and the seconds until the window resets. */
async function count(db: Db, bucket: string): Promise<{ n: number; retryAfter: number }> {
  const [row] = rowsOf<{ count: number; reset_in: string }>(
    await db.execute(sql`
      insert into store_order_windows (bucket, window_start, count) values (${bucket}, date_trunc('minute', now()), 1)
      on conflict (bucket, window_start) do update set count = store_order_windows.count + 1
      returning count, extract(epoch from window_start + interval '1 minute' - now())::text as reset_in`),
  );
  // Now and then, drop windows nobody reads any more (no job needed).
  if (Math.random() < 0.01) await db.execute(sql`delete from store_order_windows where window_start < now() - interval '10 minutes'`);
  return { n: Number(row!.count), retryAfter: Math.max(1, Math.ceil(Number(row!.reset_in))) };
}

const tooMany = (message: string, retryAfter: number) => new ApiError('rate_limited', message, undefined, { 'Retry-After': String(retryAfter) });

/**
 * Buckets this process has seen past their limit, until their window ends: a
 * window's count only grows, so further requests are refused without a
 * database round trip and a flood costs the database nothing once refused.
 */
const overUntil = new Map<string, number>();

/**
 * Counts one creation in `bucket`'s current minute; null while within `limit`, else the seconds to wait.
 * Also used by payment link pages (lib/payment-links), whose buckets are prefixed `plink-`.
 */
export async function overCreationLimit(db: Db, bucket: string, limit: number): Promise<number | null> {
  const until = overUntil.get(bucket);
  if (until !== undefined) {
    if (until > Date.now()) return Math.max(1, Math.ceil((until - Date.now()) / 1000));
    overUntil.delete(bucket);
  }
  const c = await count(db, bucket);
  if (c.n <= limit) return null;
  if (overUntil.size > 10_000) overUntil.clear();
  overUntil.set(bucket, Date.now() + c.retryAfter * 1000);
  return c.retryAfter;
}

/**
 * Per-minute limits on placing orders, checked before any work: the client
 * address first (public store pages; IPv6 by its /64, addressGroup; an address past its limit is not
 * counted against the store, so one address cannot use up a store's
 * allowance), then the store (page and /v1/orders together).
 */
export async function throttleOrderCreation(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  clientAddress: string | null,
  l: StoreOrderLimits,
): Promise<void> {
  if (clientAddress !== null) {
    const wait = await overCreationLimit(db, `addr:${addressGroup(clientAddress)}`, l.perAddressPerMinute);
    if (wait !== null) throw tooMany(`Too many orders from your address; try again in ${wait} seconds.`, wait);
  }
  const wait = await overCreationLimit(db, `store:${owner.tenantId}:${owner.mode}`, l.perStorePerMinute);
  if (wait !== null) throw tooMany(`This store is taking too many orders right now; try again in ${wait} seconds.`, wait);
}

/**
 * Inside the order's transaction, after its order row is written: refuses
 * (rolling the order back) when the store now holds more than `max` unpaid
 * orders. The advisory lock serialises the count per store, so concurrent
 * orders cannot slip past the cap; taken last, it is held only for the count
 * and the commit, not while the invoice is built, so a burst of orders on one
 * store (allowed or not) does not queue the store's other buyers behind it.
 */
export async function assertOpenOrderRoom(tx: Db, owner: { tenantId: string; mode: Mode }, max: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`store-open-orders:${owner.tenantId}:${owner.mode}`}))`);
  const [row] = rowsOf<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from (select 1 from orders where tenant_id = ${owner.tenantId} and mode = ${owner.mode}
                           and status = 'PENDING_PAYMENT' limit ${max + 1}) o`),
  );
  if (Number(row!.n) > max) {
    throw new ApiError('too_many_open_orders', 'This store has too many unpaid orders at the moment; please try again in a few minutes.', undefined, {
      'Retry-After': '60',
    });
  }
}
