import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { exchangeOrders, type ExchangeOrder } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { MODES } from '@/lib/tenants/mode';
import { createExchangeClient } from './client';
import { getExchangeConfig } from './config';
import { ExchangeApiError } from './errors';
import { recordOrderState, type TrackIntervals } from './record-order-state';
import { takeAvailableWeight } from './weight-budget';

export interface TrackOptions {
  now?: Date;
  /** Most orders looked at per mode and run. */
  batch?: number;
  concurrency?: number;
  intervals?: TrackIntervals;
}

/**
 * Hints that cost no weight: a pay-in invoice that has received USDT means
 * its order has moved (DONE, or nearly): look at it first, now.
 */
async function applyHints(db: Db) {
  await db.execute(sql`
    update exchange_orders eo set priority = 0, next_check_at = now()
      from invoices i
     where eo.state = 'open' and eo.purpose = 'payin' and eo.invoice_id = i.id
       and eo.priority = 1 and i.amount_received > 0`);
}

/**
 * One pass of the order tracker: the due open orders of each mode, moving
 * ones first then the longest overdue, as many as the weight budget lets the
 * tracker spend now (it stops at the ceiling, leaving room for creates).
 * What is not polled stays due and goes first next time.
 */
export async function trackExchangeOrders(db: Db, opts: TrackOptions = {}) {
  await applyHints(db);
  let polled = 0;
  for (const mode of MODES) {
    const config = getExchangeConfig(mode);
    if (!config) continue;
    const now = opts.now ?? new Date();
    const due = await db
      .select()
      .from(exchangeOrders)
      .where(and(eq(exchangeOrders.state, 'open'), eq(exchangeOrders.mode, mode), lte(exchangeOrders.nextCheckAt, now)))
      .orderBy(asc(exchangeOrders.priority), asc(exchangeOrders.nextCheckAt))
      .limit(opts.batch ?? 50);
    if (due.length === 0) continue;
    const client = createExchangeClient(db, config, { retries: 0 });
    const granted = await takeAvailableWeight(db, client.keyHash, due.length, { limit: config.weightLimit, windowMs: config.windowMs, ceiling: config.trackCeiling });
    const batch = due.slice(0, granted);
    const queue = [...batch];
    const worker = async () => {
      for (let row: ExchangeOrder | undefined; (row = queue.shift()); ) {
        try {
          const order = await client.order(row.exchangeId!, row.token!, { prepaid: true, ceiling: config.trackCeiling, maxWaitMs: 0 });
          await recordOrderState(db, row, order, { intervals: opts.intervals });
        } catch (err) {
          const lost = err instanceof ExchangeApiError;
          log.warn('exchange order check failed', { exchangeOrder: row.id, error: (err as Error).message });
          await db
            .update(exchangeOrders)
            .set({ nextCheckAt: new Date(Date.now() + (lost ? 60_000 : 10_000)), error: String((err as Error).message).slice(0, 300) })
            .where(eq(exchangeOrders.id, row.id));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 8, batch.length) }, worker));
    polled += batch.length;
  }
  return { polled };
}

/** Trigger.dev: repeated passes for most of a minute. */
export async function trackExchangeOrdersLoop(db: Db, opts: { runForMs: number; everyMs?: number }) {
  const until = Date.now() + opts.runForMs;
  while (Date.now() < until) {
    await trackExchangeOrders(db);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 1000));
  }
}
