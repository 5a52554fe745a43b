import type { Db } from '@/lib/db';
import { purgeExpiredRequestState } from './maintenance';

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
];
