import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { installPaymentHooks } from '@/lib/payment-hooks';
import { acquireLease, completeLease, renewLease } from '@/lib/db/lease';
import { sleep } from '@/lib/async/sleep';
import { observeJobRun } from './observe-job-run';
import { SCHEDULED_JOBS } from './registry';
import type { ScheduledJob } from './scheduled-job';

export interface WorkerOptions {
  db: Db;
  signal: AbortSignal;
  jobs?: ScheduledJob[];
  /** How often to look for due jobs. */
  tickMs?: number;
}

/**
 * The local worker: runs each scheduled job when its shared lease is free.
 * Jobs run concurrently with each other; one job never overlaps itself.
 */
export async function runWorker({ db, signal, jobs = SCHEDULED_JOBS, tickMs = 200 }: WorkerOptions): Promise<void> {
  installPaymentHooks();
  const owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  // Job name → start time of its current run.
  const running = new Map<string, number>();
  // Job name → when to ask for its lease again. Asking every tick for every job kept the database busy
  // with nobody using the gateway (a dozen lease queries per tick); the lease says when a job is due.
  const notBefore = new Map<string, number>();
  log.info('worker started', { owner, jobs: jobs.map((j) => j.name) });
  while (!signal.aborted) {
    for (const job of jobs) {
      if ((notBefore.get(job.name) ?? 0) > Date.now()) continue;
      const since = running.get(job.name);
      if (since !== undefined) {
        // A run past its lease has lost it (another worker may run the job now): stop waiting for it here too,
        // so one hung call cannot stall a job in this worker for good.
        if (Date.now() - since <= job.leaseMs) continue;
        log.warn('job run exceeded its lease; starting a new run', { job: job.name });
      }
      const started = Date.now();
      running.set(job.name, started);
      void runOnce(db, job, owner, signal).then((ran) => {
        if (running.get(job.name) !== started) return;
        running.delete(job.name);
        // Ours: due again everyMs after it ended. Held elsewhere: ask again soon (that holder may die).
        notBefore.set(job.name, Date.now() + (ran ? job.everyMs : Math.min(job.everyMs, RETRY_HELD_MS)));
      });
    }
    await sleep(tickMs, signal);
  }
  while (running.size > 0) await sleep(50);
  log.info('worker stopped', { owner });
}

/**
 * A running job holds its lease for HEARTBEAT_TTL_MS at a time, renewed every
 * HEARTBEAT_EVERY_MS until the run ends or has taken `leaseMs` (a hung run then
 * lapses as before). A worker that dies (SIGKILL, OOM, lost host) therefore
 * frees its jobs within HEARTBEAT_TTL_MS instead of holding them for the whole
 * `leaseMs` (10 minutes for settlement).
 */
export const HEARTBEAT_TTL_MS = 30_000;
const HEARTBEAT_EVERY_MS = 10_000;

/** How soon a job whose lease another worker holds is asked for again. */
const RETRY_HELD_MS = 1_000;

/** One run of the job if its lease is free; false when it was not (held elsewhere, or the check failed). */
async function runOnce(db: Db, job: ScheduledJob, owner: string, signal: AbortSignal): Promise<boolean> {
  const ttl = Math.min(job.leaseMs, HEARTBEAT_TTL_MS);
  try {
    if (!(await acquireLease(db, job.name, owner, ttl))) return false;
  } catch (err) {
    if (!signal.aborted) log.warn('lease check failed', { job: job.name, error: String(err) });
    return false;
  }
  const started = Date.now();
  const heartbeat = setInterval(() => {
    if (Date.now() - started + ttl > job.leaseMs) return;
    renewLease(db, job.name, owner, ttl)
      .then((held) => {
        if (!held) log.warn('lease lost while running', { job: job.name });
      })
      .catch(() => {});
  }, HEARTBEAT_EVERY_MS);
  // A signal of the run's own: the jobs' loops and sleeps listen on it, not all a dozen jobs on the worker's
  // one signal (past Node's 10 listeners: a MaxListenersExceededWarning at every start). AbortSignal.any
  // follows the worker's without adding a listener to it.
  const runSignal = AbortSignal.any([signal]);
  const { error, durationMs } = await observeJobRun(job.name, () => job.run(db, runSignal));
  clearInterval(heartbeat);
  await completeLease(db, job.name, owner, job.everyMs, error, durationMs).catch(() => {});
  return true;
}
