import type { Db } from '@/lib/db';

/** A job the worker runs on a schedule (lib/jobs/registry.ts lists them). */
export interface ScheduledJob {
  name: string;
  /** Interval between runs, shared by all workers through the lease. */
  everyMs: number;
  /** Longest a run may hold the lease before another worker may take over. */
  leaseMs: number;
  run: (db: Db, signal: AbortSignal) => Promise<void>;
}
