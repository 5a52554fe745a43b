/**
 * graphile-worker with the settings of its performance page for throughput
 * (worker.graphile.org/docs/performance: concurrentJobs 24, maxPoolSize 25,
 * localQueue of 500, completeJobBatchDelay and failJobBatchDelay 0); the
 * concurrency is a parameter so the bench can take its best figure.
 * A job records its outcome row through the worker's pool (its task API is
 * one job per call), then completes or throws to be retried.
 */
import { Logger, makeWorkerUtils, run, runMigrations, type Runner, type WorkerUtils } from 'graphile-worker';
import postgres from 'postgres';
import { METER_APP } from '../lib/db-cpu';
import { OUTCOMES_DDL, payload, type Mix, type QueueSystem, type Tracker } from './common';

const quiet = new Logger(() => () => {});

export async function graphileWorker(connectionString: string, datname: string, concurrency: number): Promise<QueueSystem> {
  await runMigrations({ connectionString, logger: quiet });
  const check = postgres(connectionString, { max: 1, onnotice: () => {}, connection: { application_name: METER_APP } });
  await check.unsafe(OUTCOMES_DDL);
  let utils: WorkerUtils | null = await makeWorkerUtils({ connectionString, logger: quiet });
  let runner: Runner | null = null;
  const maxPoolSize = Math.max(10, concurrency + 1);
  const localQueue = 500;
  return {
    name: 'graphile-worker',
    datname,
    settings: `graphile-worker 0.18.0: concurrentJobs ${concurrency}, maxPoolSize ${maxPoolSize}, localQueue.size ${localQueue}, completeJobBatchDelay 0, failJobBatchDelay 0, pollInterval 2000 (LISTEN/NOTIFY wakes it); addJobs of 1,000; retry after e s (fixed: exp(attempts))`,
    async start(mix: Mix, tracker: Tracker) {
      runner = await run({
        connectionString,
        concurrency,
        maxPoolSize,
        noHandleSignals: true,
        logger: quiet,
        preset: { worker: { localQueue: { size: localQueue }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
        taskList: {
          deliver: async (p, helpers) => {
            const seq = (p as { seq: number }).seq;
            const a = tracker.attempt(seq);
            await helpers.withPgClient((c) =>
              c.query('insert into bench_outcomes (job_id, seq, attempt, ok) values ($1, $2, $3, $4)', [helpers.job.id, seq, a.number, a.ok]),
            );
            if (!a.ok) throw new Error('HTTP 500');
            tracker.succeeded++;
          },
        },
      });
      void mix;
    },
    async enqueue(from: number, n: number) {
      for (let i = 0; i < n; i += 1000) {
        const specs = Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({
          identifier: 'deliver',
          payload: payload(from + i + k),
          maxAttempts: 2,
        }));
        await utils!.addJobs(specs);
      }
    },
    async left() {
      const [r] = await check`select count(*)::int as n from graphile_worker._private_jobs`;
      return Number(r!.n);
    },
    async stop() {
      await runner?.stop();
      runner = null;
    },
    async close() {
      await utils?.release();
      utils = null;
      await check.end();
    },
  };
}
