import { performance } from 'node:perf_hooks';
import { env } from '@/lib/env';
import { newId } from '@/lib/ids';
import { log } from '@/lib/log';
import { processMetrics } from '@/lib/metrics/registry';
import { traced } from '@/lib/metrics/tracing';

export interface JobRunOutcome {
  /** The failure's message; undefined when the run succeeded. */
  error?: string;
  cause?: unknown;
  durationMs: number;
}

/**
 * Runs one job run and reports it: one JSON log line (job, run id, duration, outcome; a failure at error
 * level with its message) and the process's gateway_job_run_duration_seconds histogram. Never throws: the
 * caller decides what a failure means. Successful runs are logged at debug in development, where a dozen
 * jobs running every second would bury everything else in `npm run dev`'s output.
 */
export async function observeJobRun(job: string, run: () => Promise<unknown>): Promise<JobRunOutcome> {
  const runId = newId('jobRun');
  const started = performance.now();
  let error: string | undefined;
  let cause: unknown;
  try {
    await traced(`job ${job}`, { 'job.name': job, 'job.run_id': runId }, run);
  } catch (err) {
    cause = err;
    error = err instanceof Error ? err.message : String(err);
  }
  const durationMs = performance.now() - started;
  const fields = { job, runId, durationMs: Math.round(durationMs), outcome: error === undefined ? 'ok' : 'failed' };
  if (error !== undefined) log.error('job failed', { ...fields, error: error.slice(0, 500) });
  else if (quietSuccess()) log.debug('job run', fields);
  else log.info('job run', fields);
  processMetrics().jobRuns.observe({ job, outcome: fields.outcome }, durationMs / 1000);
  return { error, cause, durationMs };
}

function quietSuccess(): boolean {
  try {
    return env().APP_ENV === 'development';
  } catch {
    return false;
  }
}
