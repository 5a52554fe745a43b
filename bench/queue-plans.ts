/**
 * The webhook claim's plan on the hot queue (issue 20), printed for docs/webhooks.md:
 *  1. fresh: 1,000 due deliveries;
 *  2. history: 1,000,000 finished deliveries in the log and 1,000,000 that went
 *     through the queue (inserted, then deleted as delivered; no vacuum), then
 *     the same after the rotation has cleared them;
 *  3. stale statistics: ANALYZE on an empty queue, then 50,000 due deliveries.
 * Each is EXPLAIN (ANALYZE, BUFFERS) of the claim statement itself, in a
 * transaction rolled back so nothing is claimed.
 * Run: npx tsx bench/queue-plans.ts
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { claimStatement, ORDERED_SCANS_ONLY } from '@/lib/webhooks/claim-deliveries';
import { pendingEventsStatement } from '@/lib/webhooks/dispatch-events';
import { rotateWebhookQueue } from '@/lib/webhooks/rotate-queue';
import { withBenchDatabase } from './lib/harness';

class Rollback extends Error {}

async function explain(db: Db, label: string, which: 'claim' | 'fan-out' = 'claim') {
  const now = new Date();
  const stmt =
    which === 'claim'
      ? claimStatement({ limit: 112, perTarget: 64, perTenant: 32 }, now, 'plan', new Date(now.getTime() + 60_000))
      : pendingEventsStatement(1000);
  let plan: string[] = [];
  const started = performance.now();
  await db
    .transaction(async (tx) => {
      // As claimDeliveries and dispatchEvents run them.
      await tx.execute(ORDERED_SCANS_ONLY);
      const rows = rowsOf<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain (analyze, buffers, costs off, timing off, summary on) ${stmt}`));
      plan = rows.map((r) => r['QUERY PLAN']);
      throw new Rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    });
  const ms = performance.now() - started;
  // What changes between the cases: the whole statement's buffers, each scan of the queue with its buffers, the times.
  const keep: string[] = [plan[0]!.replace(/\s+\(actual.*$/, ` (the ${which} statement)`), plan[1]!];
  plan.forEach((l, i) => {
    if (/Scan.*(webhook_queue|event_outbox)/.test(l))
      keep.push(l, ...plan.slice(i + 1, i + 4).filter((n) => /Buffers|Index Cond|Filter:|Rows Removed/.test(n)));
    if (/Planning Time|Execution Time/.test(l)) keep.push(l);
  });
  console.log(`\n### ${label} (${ms.toFixed(1)} ms round trip)\n`);
  console.log('```');
  console.log(keep.map((l) => l.replace(/^\s{6,}/, (m) => m.slice(0, 6))).join('\n'));
  console.log('```');
}

async function queueRows(db: Db, tenantId: string, endpointId: string, n: number, prefix: string, dueAgoSeconds: number) {
  await db.execute(sql`
    insert into webhook_queue (slot, delivery_id, tenant_id, mode, event_id, event_type, endpoint_id, target, next_attempt_at)
    select (select slot from webhook_queue_state), ${prefix} || g, ${tenantId}, 'test', 'evt_plan_' || (g % 1000), 'invoice.created',
           ${endpointId}, ${endpointId}, now() - make_interval(secs => ${dueAgoSeconds} - g * 0.001)
      from generate_series(1, ${n}) g`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.LOG_LEVEL ??= 'error';
  await withBenchDatabase(async () => {
    const { getDb } = await import('@/lib/db');
    const { createTestTenant } = await import('@/lib/testing/fixtures');
    const { createTestWebhookEndpoint } = await import('@/lib/testing/webhook-resources');
    const db = await getDb();
    const [av] = rowsOf<{ autovacuum: string }>(await db.execute(sql`show autovacuum`));
    console.log(`autovacuum: ${av!.autovacuum}`);
    const t = await createTestTenant();
    const ep = await createTestWebhookEndpoint(db, { tenantId: t.tenant.id, mode: 'test' }, { url: 'https://example.com/hook' });
    await db.execute(sql`
      insert into events (id, tenant_id, mode, type, subject_id, data, created_at)
      select 'evt_plan_' || g, ${t.tenant.id}, 'test', 'invoice.created', 'inv_plan', '{}'::jsonb, now() from generate_series(0, 999) g`);

    await queueRows(db, t.tenant.id, ep.id, 1_000, 'whd_fresh_', 10);
    await db.execute(sql`analyze webhook_queue`);
    await explain(db, '1. Fresh queue, 1,000 due deliveries');

    console.error('writing 1,000,000 finished deliveries to the log and through the queue ...');
    await db.execute(sql`
      insert into webhook_deliveries (id, tenant_id, mode, event_id, event_type, endpoint_id, status, attempt_count, created_at, updated_at)
      select 'whd_hist_' || g, ${t.tenant.id}, 'test', 'evt_plan_' || (g % 1000), 'invoice.created', ${ep.id}, 'SUCCEEDED', 1, now(), now()
        from generate_series(1, 1000000) g`);
    // Delivered history: older due times than the live rows, so a scan in due order meets it first.
    await queueRows(db, t.tenant.id, ep.id, 1_000_000, 'whd_hist_', 3_600);
    await db.execute(sql`delete from webhook_queue where delivery_id like 'whd_hist_%'`);
    await explain(db, '2a. After 1,000,000 delivered through the queue, no vacuum, first claim');
    await explain(db, '2b. Same, second claim');
    await rotateWebhookQueue(db, { force: true });
    await rotateWebhookQueue(db, { force: true });
    await explain(db, '2c. After the rotation (both partitions truncated once)');

    await db.execute(sql`delete from webhook_queue`);
    await rotateWebhookQueue(db, { force: true });
    await rotateWebhookQueue(db, { force: true });
    await db.execute(sql`analyze webhook_queue`);
    await queueRows(db, t.tenant.id, ep.id, 50_000, 'whd_stale_', 60);
    await explain(db, '3. Stale statistics: analyzed empty, then 50,000 due deliveries');

    // The fan-out's read of the outbox queue: 1,000 undispatched events behind 1,000,000 dispatched ones.
    console.error('writing 1,000,000 events through the outbox ...');
    await db.execute(sql`
      insert into events (id, tenant_id, mode, type, subject_id, data, created_at)
      select 'evt_hist_' || g, ${t.tenant.id}, 'test', 'invoice.created', 'inv_plan', '{}'::jsonb, now() - interval '1 hour' + g * interval '1 ms'
        from generate_series(1, 1000000) g`);
    await db.execute(sql`delete from event_outbox where event_id like 'evt_hist_%'`);
    await db.execute(sql`update events set dispatched_at = now() where id like 'evt_hist_%'`);
    await db.execute(sql`
      insert into events (id, tenant_id, mode, type, subject_id, data)
      select 'evt_live_' || g, ${t.tenant.id}, 'test', 'invoice.created', 'inv_plan', '{}'::jsonb from generate_series(1, 1000) g`);
    await explain(db, '4a. Fan-out: 1,000 new events after 1,000,000 dispatched, no vacuum, first read', 'fan-out');
    await explain(db, '4b. Same, second read', 'fan-out');
    await rotateWebhookQueue(db, { force: true });
    await rotateWebhookQueue(db, { force: true });
    await explain(db, '4c. Fan-out after the rotation', 'fan-out');
  });
  process.exit(0);
}
