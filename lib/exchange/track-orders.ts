import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { exchangeOrders, invoices, type ExchangeOrder } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { sleep } from '@/lib/async/sleep';
import { MODES, type Mode } from '@/lib/mode';
import { createExchangeClient } from './client';
import { getExchangeConfig, keyHashOf, type ExchangeConfig } from './config';
import { ExchangeApiError } from './errors';
import { PRIORITY, recordOrderState, type TrackIntervals } from './record-order-state';
import { createPacer, pickBatch, trackerPace, type Pacer } from './track-pacing';
import { countedWindowMs, takeAvailableWeight } from './weight-budget';

export interface TrackOptions {
  now?: Date;
  /** Most orders looked at per exchange key and pass. */
  batch?: number;
  concurrency?: number;
  intervals?: TrackIntervals;
}

export interface TrackResult {
  polled: number;
  /** Due orders were left for lack of weight. */
  backlog: boolean;
  /** When the next pass is worth running (the loop sleeps this long). */
  waitMs: number;
}

/** The loop's pause when nothing is left waiting for weight (hints from the chain watcher are picked up this often). */
const IDLE_MS = 500;
/** Shortest pause between passes while orders wait for weight. */
const MIN_PASS_MS = 200;
/** Longest pause while the shared window (or a 429 block) refuses the tracker: its retry time comes from the database's clock. */
const MAX_WAIT_MS = 5_000;

/**
 * Per exchange key, in this process: the pace at which the tracker spends its
 * ceiling, and the waiting orders' share carried between passes. One tracker
 * runs at a time (the job's lease, one Trigger.dev run at a time); the shared
 * window in PostgreSQL still caps every process, so a second tracker would only
 * make the spending burstier, never pass the limit.
 */
const paceState = new Map<string, { pacer: Pacer; credit: number }>();

function paceFor(keyHash: string, c: ExchangeConfig) {
  const id = `${keyHash}:${c.trackCeiling}:${c.weightLimit}:${c.windowMs}`;
  let s = paceState.get(id);
  if (!s) {
    s = { pacer: createPacer(trackerPace(Math.min(c.trackCeiling, c.weightLimit), countedWindowMs(c.windowMs))), credit: 0 };
    paceState.set(id, s);
  }
  return s;
}

/** Forget the pace kept in this process (tests start each case with a full burst). */
export function resetTrackPacing() {
  paceState.clear();
}

/**
 * Hints that cost no weight: a pay-in invoice that has received USDT since
 * we last looked at its order means the order has moved (DONE, or nearly):
 * look at it first, now. Only USDT newer than our last look counts, so an
 * invoice paid directly in USDT while its order stays NEW is not hinted (and
 * polled) on every pass.
 */
async function applyHints(db: Db) {
  await db.execute(sql`
    update exchange_orders eo set priority = ${PRIORITY.moving}, next_check_at = now()
      from invoices i
     where eo.state = 'open' and eo.purpose = 'payin' and eo.invoice_id = i.id
       and eo.priority = ${PRIORITY.waiting} and i.amount_received > 0 and i.updated_at > eo.updated_at`);
}

/** Moving orders due now: nearest to finishing first (paying out, or their USDT has arrived), then longest overdue. */
async function dueMoving(db: Db, modes: Mode[], now: Date, limit: number): Promise<ExchangeOrder[]> {
  const rows = await db
    .select({ o: exchangeOrders })
    .from(exchangeOrders)
    .leftJoin(invoices, eq(invoices.id, exchangeOrders.invoiceId))
    .where(
      and(
        eq(exchangeOrders.state, 'open'),
        inArray(exchangeOrders.mode, modes),
        eq(exchangeOrders.priority, PRIORITY.moving),
        lte(exchangeOrders.nextCheckAt, now),
      ),
    )
    .orderBy(
      sql`case when ${exchangeOrders.status} = 'WITHDRAW' or coalesce(${invoices.amountReceived}, 0) > 0 then 0 else 1 end`,
      asc(exchangeOrders.nextCheckAt),
    )
    .limit(limit);
  return rows.map((r) => r.o);
}

/** Waiting orders due now, longest overdue first: each goes to the back of the line when looked at (round-robin). */
async function dueWaiting(db: Db, modes: Mode[], now: Date, limit: number): Promise<ExchangeOrder[]> {
  return db
    .select()
    .from(exchangeOrders)
    .where(
      and(
        eq(exchangeOrders.state, 'open'),
        inArray(exchangeOrders.mode, modes),
        eq(exchangeOrders.priority, PRIORITY.waiting),
        lte(exchangeOrders.nextCheckAt, now),
      ),
    )
    .orderBy(asc(exchangeOrders.nextCheckAt))
    .limit(limit);
}

/**
 * One pass of the order tracker, per exchange API key (modes sharing a key
 * share its budget and its line): as many due orders as the tracker may poll
 * now, moving ones first with a share kept for the longest-overdue waiting
 * ones (pickBatch). The tracker spends at most its ceiling per window, paced
 * evenly over the window (createPacer), and only while the shared window
 * leaves room for creates. What is not polled stays due and goes first next time.
 */
export async function trackExchangeOrders(db: Db, opts: TrackOptions = {}): Promise<TrackResult> {
  await applyHints(db);
  const groups = new Map<string, { config: ExchangeConfig; modes: Mode[] }>();
  for (const mode of MODES) {
    const config = getExchangeConfig(mode);
    if (!config) continue;
    const keyHash = keyHashOf(config);
    const g = groups.get(keyHash);
    if (g) g.modes.push(mode);
    else groups.set(keyHash, { config, modes: [mode] });
  }
  let polled = 0;
  let backlog = false;
  // The next pass is worth running when the soonest key can poll again.
  let waitMs = groups.size === 0 ? IDLE_MS : Infinity;
  for (const [keyHash, { config, modes }] of groups) {
    const pace = paceFor(keyHash, config);
    const tokens = pace.pacer.take(opts.batch ?? 50);
    if (tokens === 0) {
      // Out of pace: look again when the next poll may be made.
      waitMs = Math.min(waitMs, Math.max(MIN_PASS_MS, pace.pacer.msUntil(1)));
      continue;
    }
    const now = opts.now ?? new Date();
    const [moving, waiting] = await Promise.all([dueMoving(db, modes, now, tokens), dueWaiting(db, modes, now, tokens)]);
    const due = Math.min(tokens, moving.length + waiting.length);
    const { granted, retryAt } =
      due > 0
        ? await takeAvailableWeight(db, keyHash, due, { limit: config.weightLimit, windowMs: config.windowMs, ceiling: config.trackCeiling })
        : { granted: 0, retryAt: null };
    pace.pacer.refund(tokens - granted);
    let keyWaitMs = IDLE_MS;
    if (moving.length + waiting.length > granted) {
      backlog = true;
      // Refused by the shared window or a 429 block: until it has room (retryAt is on the database's clock, so look
      // again after MAX_WAIT_MS at most). Otherwise the pace is what holds the rest back.
      keyWaitMs = granted === 0 && retryAt ? Math.min(MAX_WAIT_MS, retryAt.getTime() - Date.now()) : pace.pacer.msUntil(1);
    }
    waitMs = Math.min(waitMs, Math.max(MIN_PASS_MS, keyWaitMs));
    if (granted === 0) continue;
    const picked = pickBatch(moving, waiting, granted, pace.credit);
    pace.credit = picked.credit;
    await pollAll(db, config, picked.batch, opts);
    polled += picked.batch.length;
  }
  return { polled, backlog, waitMs };
}

async function pollAll(db: Db, config: ExchangeConfig, batch: ExchangeOrder[], opts: TrackOptions) {
  const client = createExchangeClient(db, config, { retries: 0 });
  const queue = [...batch];
  const worker = async () => {
    for (let row: ExchangeOrder | undefined; (row = queue.shift());) {
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
}

/**
 * The tracker as a job (local worker and Trigger.dev): passes for `runForMs`.
 * Between passes it sleeps only until the pace allows the next poll (while
 * orders wait for weight) or IDLE_MS (nothing due), so an order that comes due,
 * or is hinted, is polled within a fraction of a second when weight is free.
 */
export async function trackExchangeOrdersLoop(db: Db, opts: { runForMs: number; signal?: AbortSignal; track?: TrackOptions }) {
  const until = Date.now() + opts.runForMs;
  while (Date.now() < until && !opts.signal?.aborted) {
    let waitMs = 1_000;
    try {
      waitMs = (await trackExchangeOrders(db, opts.track)).waitMs;
    } catch (err) {
      log.warn('exchange order tracking failed', { error: String((err as Error).message ?? err).slice(0, 300) });
    }
    await sleep(Math.min(waitMs, until - Date.now()), opts.signal);
  }
}
