import { getDb } from '@/lib/db';
import { countJobRun } from '@/lib/db/lease';
import { observeJobRun } from './observe-job-run';
import { SCHEDULED_JOBS } from './registry';
import type { JobRunOptions } from './scheduled-job';

/**
 * Runs one registry job by name, once, outside the local worker: what every
 * Trigger.dev task in jobs/ does, so a task cannot drift from the job the
 * local worker runs. No lease is taken (Trigger.dev's schedules and queues
 * decide overlap) and nothing aborts the run early; the run is counted and
 * logged like the worker's. Resolves to the job's summary (the task's
 * output); a failed run throws. An unknown name throws.
 */
export async function runScheduledJob(name: string, opts: JobRunOptions = {}): Promise<unknown> {
  const job = SCHEDULED_JOBS.find((j) => j.name === name);
  if (!job) throw new Error(`no scheduled job named ${name}`);
  const db = await getDb();
  let result: unknown;
  const { error, cause, durationMs } = await observeJobRun(name, async () => {
    result = await job.run(db, new AbortController().signal, opts);
  });
  await countJobRun(db, name, durationMs, error).catch(() => {});
  if (error !== undefined) throw cause;
  return result;
}
