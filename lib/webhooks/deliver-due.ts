import type { BlockList } from 'node:net';
import type { Db } from '@/lib/db';
import { attemptDelivery, type AttemptResult } from './attempt-delivery';
import { claimDeliveries } from './claim-deliveries';
import { dispatchEvents } from './dispatch-events';

export interface DeliverDueOptions {
  now?: Date;
  limit?: number;
  leaseMs?: number;
  allow?: BlockList;
  timeoutMs?: number;
  /** Only this tenant's events and deliveries (tests). */
  tenantId?: string;
}

/**
 * One pass at a given clock: fan out new events, then claim every due
 * delivery (up to limit) and attempt them all concurrently. The schedule
 * tests drive this with a controllable `now`; the loop uses the same parts.
 */
export async function deliverDue(db: Db, opts: DeliverDueOptions = {}): Promise<AttemptResult[]> {
  const now = opts.now ?? new Date();
  await dispatchEvents(db, { now, tenantId: opts.tenantId });
  const claimed = await claimDeliveries(db, { now, limit: opts.limit ?? 100, leaseMs: opts.leaseMs, tenantId: opts.tenantId });
  return Promise.all(claimed.map((d) => attemptDelivery(db, d, { now, allow: opts.allow, timeoutMs: opts.timeoutMs })));
}
