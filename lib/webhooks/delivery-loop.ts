import type { BlockList } from 'node:net';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { attemptDelivery } from './attempt-delivery';
import { claimDeliveries, type ClaimedDelivery } from './claim-deliveries';
import { dispatchEvents } from './dispatch-events';

export interface DeliveryLoopOptions {
  signal: AbortSignal;
  /** Stop claiming after this long (one scheduled run); in-flight attempts are still finished. */
  runForMs?: number;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts in flight for one endpoint (or postBackUrl) at once: a slow receiver holds at most these slots. */
  perTarget?: number;
  /** Pause when nothing is due. */
  idleMs?: number;
  allow?: BlockList;
  timeoutMs?: number;
}

const wait = (ms: number, signal: AbortSignal, wake: Promise<unknown>) =>
  Promise.race([new Promise((r) => setTimeout(r, ms)), wake, new Promise((r) => signal.addEventListener('abort', r, { once: true }))]);

/**
 * The delivery worker: fans out new events and keeps up to `concurrency`
 * attempts in flight, topping the pool up as each one finishes, at most
 * `perTarget` per receiver. Claims are per row (SKIP LOCKED + lease), so any
 * number of these loops may run on any number of workers.
 */
export async function runDeliveryLoop(db: Db, opts: DeliveryLoopOptions): Promise<{ attempts: number }> {
  const concurrency = opts.concurrency ?? env().WEBHOOK_CONCURRENCY;
  const perTarget = opts.perTarget ?? Math.max(1, Math.floor(concurrency / 8));
  const idleMs = opts.idleMs ?? 200;
  const deadline = Date.now() + (opts.runForMs ?? Infinity);
  const inFlight = new Map<string, Promise<void>>();
  const perTargetCount = new Map<string, number>();
  let attempts = 0;
  let lastDispatch = 0;
  let wakeUp: () => void = () => {};
  let wake = new Promise<void>((r) => (wakeUp = r));

  const start = (d: ClaimedDelivery) => {
    const target = d.endpointId ?? d.postBackUrl ?? '';
    perTargetCount.set(target, (perTargetCount.get(target) ?? 0) + 1);
    const p = attemptDelivery(db, d, { allow: opts.allow, timeoutMs: opts.timeoutMs })
      .then(() => void attempts++)
      .catch((err) => log.error('webhook attempt failed to record', { deliveryId: d.id, error: String(err) }))
      .finally(() => {
        inFlight.delete(d.id);
        const n = (perTargetCount.get(target) ?? 1) - 1;
        if (n <= 0) perTargetCount.delete(target);
        else perTargetCount.set(target, n);
        wakeUp();
      });
    inFlight.set(d.id, p);
  };

  while (!opts.signal.aborted && Date.now() < deadline) {
    let claimed = 0;
    try {
      if (Date.now() - lastDispatch >= 100) {
        lastDispatch = Date.now();
        while ((await dispatchEvents(db, { limit: 1000 })).events === 1000 && !opts.signal.aborted);
      }
      const free = concurrency - inFlight.size;
      // Top up in batches rather than one row per finished attempt: fewer, larger claim queries.
      if (free >= Math.min(concurrency, 8) || (free > 0 && inFlight.size === 0)) {
        const saturated = [...perTargetCount].filter(([, n]) => n >= perTarget).map(([t]) => t);
        const rows = await claimDeliveries(db, { limit: free, saturated, perTarget });
        rows.forEach(start);
        claimed = rows.length;
      }
    } catch (err) {
      if (!opts.signal.aborted) log.warn('webhook delivery loop error', { error: String(err) });
    }
    if (claimed === 0 || inFlight.size >= concurrency) {
      await wait(claimed === 0 && inFlight.size < concurrency ? idleMs : 1000, opts.signal, wake);
      wake = new Promise<void>((r) => (wakeUp = r));
    }
  }
  await Promise.all(inFlight.values());
  return { attempts };
}
