import type { Db } from '@/lib/db';
import { purgeExpiredRequestState } from './maintenance';
import { runDeliveryLoop } from '@/lib/webhooks/delivery-loop';

export interface ScheduledJob {
  name: string;
  /** Interval between runs, shared by all workers through the lease. */
  everyMs: number;
  /** Longest a run may hold the lease before another worker may take over. */
  leaseMs: number;
  run: (db: Db, signal: AbortSignal) => Promise<void>;
}

/** Every scheduled job. The local worker runs these; jobs/ wraps the same functions for Trigger.dev. */
export const SCHEDULED_JOBS: ScheduledJob[] = [
  { name: 'purge-expired-request-state', everyMs: 60_000, leaseMs: 60_000, run: (db) => purgeExpiredRequestState(db) },
  // Webhook fan-out and delivery: one run is a 55 s loop with many attempts in flight (per-row claims make overlap safe).
  { name: 'webhook-delivery', everyMs: 500, leaseMs: 90_000, run: async (db, signal) => void (await runDeliveryLoop(db, { signal, runForMs: 55_000 })) },
];
