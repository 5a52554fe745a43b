/**
 * Database and worker CPU of each step of our webhook path, one step at a
 * time over a backlog (no loop, no HTTP): events written through the outbox,
 * fan-out, claim, attempt (signing, instant transport) and outcome write.
 * What bench/queues.ts's "database CPU per job" is made of (issue 33).
 * Run: npx tsx bench/profile-webhook-phases.ts (BENCH_PHASE_EVENTS, default 20,000; BENCH_PHASE_BATCH, default 128).
 */
import postgres from 'postgres';
import { meterDatabaseCpu, METER_APP } from './lib/db-cpu';
import { withBenchDatabase } from './lib/harness';
import { payload } from './queues/common';

const N = Number(process.env.BENCH_PHASE_EVENTS ?? 20_000);
const BATCH = Number(process.env.BENCH_PHASE_BATCH ?? 128);
const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
process.env.LOG_LEVEL ??= 'error';

await withBenchDatabase(async (url) => {
  const { getDb } = await import('@/lib/db');
  const { outbox } = await import('@/lib/events/outbox');
  const { createTestTenant } = await import('@/lib/testing/fixtures');
  const { dispatchEvents } = await import('@/lib/webhooks/dispatch-events');
  const { claimDeliveries } = await import('@/lib/webhooks/claim-deliveries');
  const { attemptDelivery } = await import('@/lib/webhooks/attempt-delivery');
  const { recordAttempts } = await import('@/lib/webhooks/record-attempts');
  const { endpoint } = await import('./webhooks');
  const { newWebhookSecret } = await import('@/lib/webhooks/secret');
  const db = await getDb();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connection: { application_name: METER_APP } });
  const datname = new URL(url).pathname.slice(1);
  const tenantId = (await createTestTenant()).tenant.id;
  // Experiments: SQL run before the phases (e.g. a table's fillfactor).
  if (process.env.BENCH_PHASE_SQL) await db.execute((await import('drizzle-orm')).sql.raw(process.env.BENCH_PHASE_SQL));
  await endpoint(db, tenantId, 'http://127.0.0.1:9/hook', newWebhookSecret(), ['invoice.created']);
  const phase = async (name: string, fn: () => Promise<void>) => {
    const meter = await meterDatabaseCpu(admin, datname);
    const cpu = process.cpuUsage();
    const t = performance.now();
    await fn();
    const ms = performance.now() - t;
    const dbS = await meter.stop();
    const node = process.cpuUsage(cpu);
    console.log(
      `${name.padEnd(34)} ${((dbS * 1e6) / N).toFixed(0).padStart(5)} µs database, ${((node.user + node.system) / N).toFixed(0).padStart(5)} µs worker per delivery, ${ms.toFixed(0)} ms`,
    );
  };
  await phase('events (outbox.write of 1,000)', async () => {
    for (let i = 0; i < N; i += 1000) {
      const now = new Date();
      await outbox.write(
        db,
        Array.from({ length: 1000 }, (_, k) =>
          outbox.row({ tenantId, mode: 'test', type: 'invoice.created', subjectId: 'inv_bench', data: payload(i + k) }, now),
        ),
      );
    }
  });
  await phase('fan-out (1,000 a transaction)', async () => {
    while ((await dispatchEvents(db, { limit: 1000 })).events > 0);
  });
  const claimed: Awaited<ReturnType<typeof claimDeliveries>> = [];
  await phase(`claim (${BATCH} a statement)`, async () => {
    for (;;) {
      const got = await claimDeliveries(db, { limit: BATCH });
      if (got.length === 0) break;
      claimed.push(...got);
    }
  });
  const records: Parameters<typeof recordAttempts>[1] = [];
  await phase('attempt (sign, instant transport)', async () => {
    for (const d of claimed) {
      await attemptDelivery(db, d, {
        send: async () => ({ ok: true, status: 200, durationMs: 0, error: null, responseBody: null, retryAfter: null }),
        record: async (r) => (records.push(r), true),
      });
    }
  });
  await phase(`outcome write (${BATCH} a statement)`, async () => {
    for (let i = 0; i < records.length; i += BATCH) await recordAttempts(db, records.slice(i, i + BATCH));
  });
  await admin.end();
});
process.exit(0);
