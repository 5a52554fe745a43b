import type { BlockList } from 'node:net';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { attemptDelivery, type AttemptOptions } from './attempt-delivery';
import { createAttemptRecorder } from './attempt-recorder';
import type { AttemptRecord } from './record-attempts';
import { claimDeliveries, type ClaimedDelivery } from './claim-deliveries';
import { dispatchEvents } from './dispatch-events';

export interface DeliveryLoopOptions {
  signal: AbortSignal;
  /** Stop claiming after this long (one scheduled run); in-flight attempts are still finished. */
  runForMs?: number;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts in flight for one endpoint (or postBackUrl) at once. */
  perTarget?: number;
  /** The same for a receiver seen answering slowly (> 2 s or not at all) in the last minute. */
  slowPerTarget?: number;
  /** Attempts in flight for one tenant at once (its share of the pool). */
  perTenant?: number;
  /** Pause when nothing is due. */
  idleMs?: number;
  allow?: BlockList;
  timeoutMs?: number;
  /** The transport (bench: an instant 200, to measure the database path alone). */
  send?: AttemptOptions['send'];
  /** Only this tenant's (or these tenants') events and deliveries (tests). */
  tenantId?: string | string[];
}

/** An attempt slower than this marks its receiver slow for a minute. */
const SLOW_MS = 2_000;

/** Sleeps until ms pass, an attempt finishes (wake) or the loop is stopped, without leaking listeners. */
function wait(ms: number, signal: AbortSignal, wake: Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    void wake.then(done);
  });
}

/**
 * The delivery worker: fans out new events and keeps up to `concurrency`
 * attempts in flight, topping the pool up as each one finishes, at most
 * `perTarget` per receiver. Claims are per row (SKIP LOCKED + lease), so any
 * number of these loops may run on any number of workers.
 */
export async function runDeliveryLoop(db: Db, opts: DeliveryLoopOptions): Promise<{ attempts: number }> {
  const concurrency = opts.concurrency ?? env().WEBHOOK_CONCURRENCY;
  // Half the pool at most for one receiver, a sixteenth once it is seen to be slow: others keep their slots.
  const perTarget = opts.perTarget ?? Math.max(1, Math.floor(concurrency / 2));
  const slowPerTarget = opts.slowPerTarget ?? Math.max(1, Math.floor(concurrency / 16));
  // A quarter of the pool per tenant (at least 2): one tenant's hanging endpoints and replays cannot hold every slot.
  const perTenant = opts.perTenant ?? env().WEBHOOK_TENANT_CONCURRENCY ?? Math.max(2, Math.floor(concurrency / 4));
  // Slots the second pass leaves free for a tenant whose events arrive next.
  const reserve = Math.max(1, Math.floor(concurrency / 16));
  const slowUntil = new Map<string, number>();
  const isSlow = (t: string) => (slowUntil.get(t) ?? 0) > Date.now();
  const idleMs = opts.idleMs ?? 200;
  const deadline = Date.now() + (opts.runForMs ?? Infinity);
  const record = createAttemptRecorder(db);
  /** Attempts whose request is under way (what the slots count). */
  const inFlight = new Set<string>();
  const perTargetCount = new Map<string, number>();
  const perTenantCount = new Map<string, number>();
  const dec = (m: Map<string, number>, k: string) => {
    const n = (m.get(k) ?? 1) - 1;
    if (n <= 0) m.delete(k);
    else m.set(k, n);
  };
  let attempts = 0;
  let wakeUp: () => void = () => {};
  let wake = new Promise<void>((r) => (wakeUp = r));

  // Outcomes sent but not yet written (the recorder groups them into shared statements).
  let recording = 0;
  // Past this many unwritten outcomes the loop stops claiming until the writes catch up.
  const maxRecording = Math.max(2 * concurrency, 500);
  const attemptsRunning = new Set<Promise<void>>();

  const start = (d: ClaimedDelivery) => {
    const target = d.endpointId ?? d.postBackUrl ?? '';
    perTargetCount.set(target, (perTargetCount.get(target) ?? 0) + 1);
    perTenantCount.set(d.tenantId, (perTenantCount.get(d.tenantId) ?? 0) + 1);
    inFlight.add(d.id);
    // Still waiting after SLOW_MS: the receiver is slow now, not only once this attempt ends.
    const slowTimer = setTimeout(() => slowUntil.set(target, Date.now() + 60_000), SLOW_MS);
    // A slot is the receiver's: it is given back once the request has its answer, while the outcome is still
    // being written (the claim holds the row until then), so the next claim overlaps the write.
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(slowTimer);
      inFlight.delete(d.id);
      dec(perTargetCount, target);
      dec(perTenantCount, d.tenantId);
      wakeUp();
    };
    const recordReleasing = (r: AttemptRecord) => {
      release();
      recording++;
      return record(r).finally(() => {
        recording--;
        wakeUp();
      });
    };
    const p = attemptDelivery(db, d, { allow: opts.allow, timeoutMs: opts.timeoutMs, record: recordReleasing, send: opts.send })
      .then((r) => {
        attempts++;
        if (!r.outcome) return;
        if (r.outcome.durationMs > SLOW_MS || (r.outcome.status === null && /timed out/.test(r.outcome.error ?? '')))
          slowUntil.set(target, Date.now() + 60_000);
        else slowUntil.delete(target);
      })
      .catch((err) => log.error('webhook attempt failed to record', { deliveryId: d.id, error: String(err) }))
      .finally(() => {
        release();
        attemptsRunning.delete(p);
      });
    attemptsRunning.add(p);
  };

  const targetRoom = () => Object.fromEntries([...perTargetCount].map(([t, n]) => [t, (isSlow(t) ? slowPerTarget : perTarget) - n]));
  /**
   * Two passes. First every tenant up to its share (tenants at it are skipped,
   * so one tenant's backlog or hanging receivers never hold the others back).
   * Then, so a lone busy tenant still uses the pool, slots nobody else claimed
   * go to anyone, but only to receivers not seen slow and keeping `reserve`
   * slots free, so a tenant whose events arrive next starts at once.
   */
  const claimTopUp = async (free: number) => {
    const tenantRoom = Object.fromEntries([...perTenantCount].map(([t, n]) => [t, perTenant - n]));
    const slow = [...slowUntil.keys()].filter(isSlow);
    const fair = await claimDeliveries(db, {
      limit: free,
      targetRoom: targetRoom(),
      perTarget,
      slow,
      slowPerTarget,
      perTenant,
      tenantRoom,
      tenantId: opts.tenantId,
    });
    fair.forEach(start);
    const spare = free - fair.length - reserve;
    if (fair.length === free || spare <= 0) return fair.length;
    const extra = await claimDeliveries(db, { limit: spare, targetRoom: targetRoom(), perTarget, exclude: slow, tenantId: opts.tenantId });
    extra.forEach(start);
    return fair.length + extra.length;
  };

  const running = () => !opts.signal.aborted && Date.now() < deadline;
  // Fan-out runs beside the claim loop so a large outbox batch never stalls the pool.
  const fanOut = (async () => {
    while (running()) {
      let n = 0;
      try {
        const r = await dispatchEvents(db, { limit: 1000, tenantId: opts.tenantId });
        n = r.events;
        // New deliveries are due at once: claim them now rather than at the claim loop's next idle tick.
        if (r.deliveries > 0) wakeUp();
      } catch (err) {
        if (!opts.signal.aborted) log.warn('webhook fan-out error', { error: String(err) });
      }
      // Go straight on while events keep coming: a pause here would cap the fan-out rate.
      if (n === 0) await wait(Math.min(100, idleMs), opts.signal, new Promise(() => {}));
    }
  })();

  while (running()) {
    let claimed = 0;
    try {
      const free = concurrency - inFlight.size;
      // Top up in batches rather than one row per finished attempt: fewer, larger claim queries
      // (but no larger than the reserve, which a newly arrived tenant must be able to claim);
      // none while too many outcomes wait to be written.
      if (recording < maxRecording && (free >= Math.max(1, Math.min(16, concurrency / 8, reserve)) || (free > 0 && inFlight.size === 0))) {
        claimed = await claimTopUp(free);
      }
    } catch (err) {
      if (!opts.signal.aborted) log.warn('webhook delivery loop error', { error: String(err) });
    }
    if (claimed === 0 || inFlight.size >= concurrency) {
      await wait(claimed === 0 && inFlight.size < concurrency ? idleMs : 1000, opts.signal, wake);
      wake = new Promise<void>((r) => (wakeUp = r));
    }
  }
  await fanOut;
  await Promise.all(attemptsRunning);
  return { attempts };
}
