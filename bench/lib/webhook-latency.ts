/**
 * Latency a merchant feels (issue 33), for bench/webhooks.ts: from the commit
 * of the transaction that wrote an event to the moment the receiver has the
 * request (its handler starts), per event id, with the delivery loop and the
 * queue rotation running as the worker runs them.
 *  - offered: events written every 10 ms at a steady rate (100/s, 1,000/s) for
 *    BENCH_LATENCY_SECONDS (60), one tenant, one endpoint; p50 / p99.
 *  - hanging endpoints: the same for the other endpoints (4 tenants, one
 *    endpoint each, 100 events/s in all) alone, then beside a fifth tenant's
 *    20 endpoints that answer after 10 s (each of its 5 events/s goes to all
 *    20), then alone again (the 20 disabled); their p99 beside against the
 *    mean of the two alone. Run between the 100/s and the 1,000/s rows.
 *  Each row waits until every event it wrote has arrived (up to 180 s).
 */
import type { ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { outbox } from '@/lib/events/outbox';
import type { EventType } from '@/lib/events/types';
import { createTestTenant } from '@/lib/testing/fixtures';
import { newWebhookSecret } from '@/lib/webhooks/secret';
import type { Row } from './harness';

const SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 60);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LatencyDeps {
  db: Db;
  child: ChildProcess;
  ask: <T>(child: ChildProcess, type: string) => Promise<T>;
  startLoop: (db: Db) => { stop: () => Promise<unknown> };
  endpoint: (db: Db, tenantId: string, url: string, secret: string, subscribed?: string[]) => Promise<void>;
  fastUrl: string;
  slowUrl: string;
  fastSecret: string;
}

interface Stream {
  tenantIds: string[];
  rate: number;
  type: EventType;
}

/** Writes each stream's events at its rate in 10 ms ticks for `seconds`; the commit time of every event written, per stream. */
async function produce(db: Db, streams: Stream[], seconds: number) {
  const committed = streams.map(() => new Map<string, number>());
  const produced = streams.map(() => 0);
  const started = Date.now();
  while (Date.now() - started < seconds * 1000) {
    const tick = Date.now();
    await Promise.all(
      streams.map(async (s, i) => {
        const due = Math.floor(((tick - started) / 1000) * s.rate) - produced[i]!;
        if (due <= 0) return;
        produced[i]! += due;
        const now = new Date();
        const rows = Array.from({ length: due }, (_, k) =>
          outbox.row(
            {
              tenantId: s.tenantIds[(produced[i]! + k) % s.tenantIds.length]!,
              mode: 'test',
              type: s.type,
              subjectId: 'inv_latency',
              data: { seq: k },
            },
            now,
          ),
        );
        await outbox.write(db, rows);
        const at = Date.now();
        for (const r of rows) committed[i]!.set(r.id, at);
      }),
    );
    await sleep(Math.max(0, 10 - (Date.now() - tick)));
  }
  return committed;
}

/** Latencies of the events of `committed`, once the receiver has them all (or after 180 s: a backlog, reported as missing). */
async function latencies(d: LatencyDeps, committed: Map<string, number>) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const { receipts } = await d.ask<{ receipts: [string, number][] }>(d.child, 'receipts');
    const got = new Map(receipts);
    const missing = [...committed.keys()].filter((id) => !got.has(id)).length;
    if (missing === 0 || Date.now() > deadline) {
      const ms = [...committed].filter(([id]) => got.has(id)).map(([id, at]) => got.get(id)! - at);
      ms.sort((a, b) => a - b);
      const pct = (p: number) => ms[Math.min(ms.length - 1, Math.floor(ms.length * p))] ?? NaN;
      return { p50: pct(0.5), p99: pct(0.99), n: ms.length, missing };
    }
    await sleep(200);
  }
}

async function tenantsWithEndpoint(d: LatencyDeps, n: number, url: string, secret: string, subscribed: string[], perTenant = 1) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = (await createTestTenant({ name: `Bench latency ${Date.now()} ${i}` })).tenant.id;
    for (let k = 0; k < perTenant; k++) await d.endpoint(d.db, id, url, secret, subscribed);
    ids.push(id);
  }
  return ids;
}

async function offered(d: LatencyDeps, rate: number) {
  const tenantIds = await tenantsWithEndpoint(d, 1, d.fastUrl, d.fastSecret, ['invoice.created']);
  await d.ask(d.child, 'reset');
  const loop = d.startLoop(d.db);
  const [committed] = await produce(d.db, [{ tenantIds, rate, type: 'invoice.created' }], SECONDS);
  const r = await latencies(d, committed!);
  await loop.stop();
  return r;
}

async function others(d: LatencyDeps, tenantIds: string[], hanging: string[] | null, seconds: number) {
  await d.ask(d.child, 'reset');
  const streams: Stream[] = [{ tenantIds, rate: 100, type: 'invoice.created' }];
  if (hanging) streams.push({ tenantIds: hanging, rate: 5, type: 'order.created' });
  const loop = d.startLoop(d.db);
  // Only the others' events: the hanging endpoints' never reach the fast receiver.
  const [committed] = await produce(d.db, streams, seconds);
  const r = await latencies(d, committed!);
  await loop.stop();
  return r;
}

export async function latencyRows(d: LatencyDeps): Promise<Row[]> {
  const rows: Row[] = [];
  const offeredRow = async (rate: number) => {
    console.log(`latency: ${rate} events/s offered for ${SECONDS} s ...`);
    const r = await offered(d, rate);
    rows.push({
      name: `latency commit -> receiver, ${rate} events/s offered for ${SECONDS} s: p50 / p99 ms (received / missing after 180 s)`,
      value: `${r.p50} / ${r.p99} (${r.n} / ${r.missing})`,
      target: rate === 100 ? 'p50 < 100, p99 < 1000' : '',
      ok: rate === 100 ? r.p50 < 100 && r.p99 < 1000 && r.missing === 0 : null,
    });
  };
  await offeredRow(100);
  // Before the 1,000/s run: on a loaded machine that one can leave a backlog behind, which would run beside these.
  console.log('hanging endpoints: the others alone, beside 20 endpoints answering after 10 s, alone again ...');
  const otherIds = await tenantsWithEndpoint(d, 4, d.fastUrl, d.fastSecret, ['invoice.created']);
  const [hangingId] = await tenantsWithEndpoint(d, 1, d.slowUrl, newWebhookSecret(), ['order.created'], 20);
  const phase = Math.max(20, Math.floor(SECONDS / 2));
  const before = await others(d, otherIds, null, phase);
  const beside = await others(d, otherIds, [hangingId!], phase);
  // Their retries (30 s after each 10 s timeout) would hang again in the run after: the tenant disables them, and
  // what is still queued for them is closed unsent before that run starts.
  await d.db.execute(sql`update webhook_endpoints set enabled = false where tenant_id = ${hangingId!}`);
  const cleanup = d.startLoop(d.db);
  const until = Date.now() + 120_000;
  const queued = async () =>
    Number(rowsOf<{ n: string }>(await d.db.execute(sql`select count(*)::text as n from webhook_queue where tenant_id = ${hangingId!}`))[0]!.n);
  while ((await queued()) > 0 && Date.now() < until) await sleep(500);
  await cleanup.stop();
  const after = await others(d, otherIds, null, phase);
  const alone = (before.p99 + after.p99) / 2;
  const change = beside.p99 / alone - 1;
  rows.push(
    {
      name: `other endpoints' p99 ms, alone / beside 20 hanging endpoints / alone (${phase} s each, 100 events/s)`,
      value: `${before.p99} / ${beside.p99} / ${after.p99} (p50 ${before.p50} / ${beside.p50} / ${after.p50})`,
      target: '',
      ok: null,
    },
    {
      name: "other endpoints' p99 beside the hanging ones, against alone",
      value: `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%`,
      target: 'at most +20%',
      ok: change <= 0.2 && before.missing + beside.missing + after.missing === 0,
    },
  );
  await offeredRow(1000);
  return rows;
}
