import type { Db } from '@/lib/db';

/** What a runner may change about one run: Trigger.dev's minute-long tasks loop longer than the local worker's runs. */
export interface JobRunOptions {
  /** Length of a looping job's run (webhook delivery, chain watch, exchange tracker); each job has its own default. */
  runForMs?: number;
}

/** A job the worker runs on a schedule (lib/jobs/registry.ts lists them). */
export interface ScheduledJob {
  name: string;
  /** Interval between runs, shared by all workers through the lease. */
  everyMs: number;
  /** Longest a run may hold the lease before another worker may take over. */
  leaseMs: number;
  /** Resolves to the run's summary, if any: the worker ignores it, Trigger.dev shows it as the task's output. */
  run: (db: Db, signal: AbortSignal, opts?: JobRunOptions) => Promise<unknown>;
}
