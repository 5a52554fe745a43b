/**
 * pg-boss 12 set up for throughput as its worker documentation describes it:
 * batch fetches (`batchSize`), several fetch loops per process
 * (`localConcurrency`), fetching back to back while batches come back full
 * (`burstWhenBatchFull`), LISTEN/NOTIFY to wake idle workers (`notify` on the
 * queue, `useListenNotify`), the minimum poll of 0.5 s, and per-job results so
 * one batch can complete some jobs and fail others. A batch handler writes
 * its jobs' outcome rows in one statement, as its batch API invites.
 */
import { PgBoss } from 'pg-boss';
import postgres from 'postgres';
import { METER_APP } from '../lib/db-cpu';
import { OUTCOMES_DDL, payload, RETRY_DELAY_S, type Mix, type QueueSystem, type Tracker } from './common';

const QUEUE = 'deliver';

export async function pgBoss(connectionString: string, datname: string, batchSize: number, localConcurrency: number): Promise<QueueSystem> {
  const check = postgres(connectionString, { max: 1, onnotice: () => {}, connection: { application_name: METER_APP } });
  await check.unsafe(OUTCOMES_DDL);
  const max = Math.max(10, localConcurrency + 2);
  const make = (supervise: boolean) =>
    new PgBoss({
      connectionString,
      max,
      useListenNotify: true,
      supervise,
      schedule: false,
      registerInstance: false,
      openTelemetry: { enabled: false },
    });
  // One instance adds the jobs (and creates the queue); each run starts its own worker instance, which alone runs maintenance.
  const producer = make(false);
  producer.on('error', () => {});
  await producer.start();
  await producer.createQueue(QUEUE, { retryLimit: 1, retryDelay: RETRY_DELAY_S, notify: true });
  let worker: PgBoss | null = null;
  return {
    name: 'pg-boss',
    datname,
    settings: `pg-boss 12.38.0: work() with batchSize ${batchSize}, localConcurrency ${localConcurrency}, burstWhenBatchFull, perJobResults, pollingIntervalSeconds and notifyPollingIntervalSeconds 0.5 (retries are not notified); queue notify + useListenNotify, retryLimit 1, retryDelay ${RETRY_DELAY_S} s; pool max ${max}; insert() of 1,000`,
    async start(mix: Mix, tracker: Tracker) {
      void mix;
      worker = make(true);
      worker.on('error', () => {});
      await worker.start();
      const db = worker.getDb();
      await worker.work<{ seq: number }>(
        QUEUE,
        {
          batchSize,
          localConcurrency,
          burstWhenBatchFull: true,
          perJobResults: true,
          pollingIntervalSeconds: 0.5,
          notifyPollingIntervalSeconds: 0.5,
        },
        async (jobs) => {
          const done = jobs.map((j) => ({ id: j.id, seq: j.data.seq, ...tracker.attempt(j.data.seq) }));
          await db.executeSql(
            'insert into bench_outcomes (job_id, seq, attempt, ok) select * from unnest($1::text[], $2::int[], $3::int[], $4::bool[])',
            [done.map((d) => d.id), done.map((d) => d.seq), done.map((d) => d.number), done.map((d) => d.ok)],
          );
          tracker.succeeded += done.filter((d) => d.ok).length;
          return done.map((d) => ({ id: d.id, status: d.ok ? ('completed' as const) : ('failed' as const) }));
        },
      );
    },
    async enqueue(from: number, n: number) {
      for (let i = 0; i < n; i += 1000) {
        await producer.insert(
          QUEUE,
          Array.from({ length: Math.min(1000, n - i) }, (_, k) => ({ data: payload(from + i + k) })),
        );
      }
    },
    async left() {
      const [r] = await check`select count(*)::int as n from pgboss.job where name = ${QUEUE} and state in ('created', 'retry', 'active')`;
      return Number(r!.n);
    },
    async stop() {
      await worker?.stop({ graceful: true, timeout: 10_000 });
      worker = null;
    },
    async close() {
      await producer.stop({ graceful: false });
      await check.end();
    },
  };
}
