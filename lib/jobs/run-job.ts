import { getDb } from '@/lib/db';
import { SCHEDULED_JOBS } from './registry';
import type { JobRunOptions } from './scheduled-job';

/**
 * Runs one registry job by name, once, outside the local worker: what every
 * Trigger.dev task in jobs/ does, so a task cannot drift from the job the
 * local worker runs. No lease is taken (Trigger.dev's schedules and queues
 * decide overlap) and nothing aborts the run early. Resolves to the job's
 * summary (the task's output). An unknown name throws.
 */
export async function runScheduledJob(name: string, opts: JobRunOptions = {}): Promise<unknown> {
  const job = SCHEDULED_JOBS.find((j) => j.name === name);
  if (!job) throw new Error(`no scheduled job named ${name}`);
  return job.run(await getDb(), new AbortController().signal, opts);
}
