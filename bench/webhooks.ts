/**
 * Webhook delivery benchmark (real PostgreSQL, loopback receiver in a child
 * process that verifies every signature):
 *  1. sustained: events written at BENCH_RATE/s (default 1,200) for
 *     BENCH_SECONDS (60) while the delivery loop runs; deliveries/s over the
 *     window, latency event -> receipt, then drain and check none lost or duplicated.
 *  2. slow endpoint: drain rate of a 20,000-event backlog to a fast endpoint,
 *     alone and while another endpoint, answering after 10 s, gets 50 events/s, in
 *     turn (alone, beside, alone, beside, alone).
 * Targets: >= 1,000 deliveries/s sustained; slowdown < 10%.
 * Run: npx tsx bench/webhooks.ts (fresh database from TEST_PG_ADMIN_URL, or BENCH_REUSE_DB=1 with DATABASE_URL).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { sealSecret } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db';
import { outbox } from '@/lib/events/outbox';
import type { EventType } from '@/lib/events/types';
import { newId } from '@/lib/ids';
import { parseAllowList } from '@/lib/webhooks/blocked-address';
import { runDeliveryLoop } from '@/lib/webhooks/delivery-loop';
import { newWebhookSecret } from '@/lib/webhooks/secret';
import { printTable, withBenchDatabase, type Row } from './lib/harness';

const RATE = Number(process.env.BENCH_RATE ?? 1200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 20_000);
const allow = parseAllowList('127.0.0.1');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Report {
  total: number;
  unique: number;
  duplicates: number;
  badSignatures: number;
  p50: number;
  p99: number;
  perSecond: number[];
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== type) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    child.send({ type });
  });
}

async function insertEvents(db: Db, tenantId: string, n: number, type = 'invoice.created') {
  for (let i = 0; i < n; i += 1000) {
    // Rows from the outbox's builder; with createdAt set, outbox.write inserts each batch in one statement.
    const now = new Date();
    const rows = Array.from({ length: Math.min(1000, n - i) }, (_, k) =>
      outbox.row(
        {
          tenantId,
          mode: 'test',
          type: type as EventType,
          subjectId: 'inv_bench',
          data: { invoiceId: 'inv_bench', amountReceived: '10.00', seq: i + k },
        },
        now,
      ),
    );
    await outbox.write(db, rows);
  }
}

async function endpoint(db: Db, tenantId: string, url: string, secret: string, subscribed = ['*']) {
  // Sealed as the API stores it, so every attempt pays for opening it.
  await db
    .insert(webhookEndpoints)
    .values({ id: newId('webhookEndpoint'), tenantId, mode: 'test', url, secret: sealSecret(secret), eventsSubscribed: subscribed });
}

async function succeeded(db: Db, tenantId: string) {
  const [r] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.status, 'SUCCEEDED')));
  return Number(r!.n);
}

function startLoop(db: Db) {
  const controller = new AbortController();
  const done = runDeliveryLoop(db, { signal: controller.signal, allow });
  return { stop: async () => (controller.abort(), done) };
}

async function waitFor(child: ChildProcess, n: number, timeoutMs: number): Promise<{ report: Report; ms: number }> {
  const start = Date.now();
  for (;;) {
    const report = await ask<Report>(child, 'report');
    if (report.unique >= n || Date.now() - start > timeoutMs) return { report, ms: Date.now() - start };
    await sleep(100);
  }
}

async function sustained(db: Db, child: ChildProcess, tenantId: string) {
  await ask(child, 'reset');
  const loop = startLoop(db);
  const started = Date.now();
  let produced = 0;
  // The producer writes RATE/10 events every 100 ms, as many transactions elsewhere would.
  while (Date.now() - started < SECONDS * 1000) {
    const tickStart = Date.now();
    const due = Math.floor(((tickStart - started) / 1000) * RATE) - produced;
    if (due > 0) {
      await insertEvents(db, tenantId, due);
      produced += due;
    }
    await sleep(Math.max(0, 100 - (Date.now() - tickStart)));
  }
  const inWindow = (await ask<Report>(child, 'report')).perSecond.slice(0, SECONDS);
  const { report } = await waitFor(child, produced, 120_000);
  await loop.stop();
  const ok = await succeeded(db, tenantId);
  const windowRate = inWindow.reduce((a, b) => a + b, 0) / SECONDS;
  const tens = Array.from(
    { length: Math.max(1, Math.floor(SECONDS / 10)) },
    (_, i) => inWindow.slice(i * 10, i * 10 + 10).reduce((a, b) => a + b, 0) / 10,
  );
  return { produced, report, windowRate, minTen: Math.min(...tens), tens, ok };
}

async function drain(db: Db, child: ChildProcess, tenantId: string, fastUrl: string, slowUrl: string | null) {
  await endpoint(db, tenantId, fastUrl, process.env.BENCH_FAST_SECRET!, ['invoice.created']);
  if (slowUrl) await endpoint(db, tenantId, slowUrl, newWebhookSecret(), ['order.created']);
  await insertEvents(db, tenantId, BACKLOG);
  await ask(child, 'reset');
  const loop = startLoop(db);
  // The slow endpoint gets a steady 50 events/s throughout the drain (a burst of 100 first).
  let streaming = slowUrl !== null;
  const stream = (async () => {
    if (streaming) await insertEvents(db, tenantId, 100, 'order.created');
    while (streaming) {
      await insertEvents(db, tenantId, 5, 'order.created');
      await sleep(100);
    }
  })();
  const { report, ms } = await waitFor(child, BACKLOG, 180_000);
  streaming = false;
  await stream;
  await loop.stop();
  return { rate: (report.unique / ms) * 1000, report };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.LOG_LEVEL ??= 'error';
  const fastSecret = newWebhookSecret();
  process.env.BENCH_FAST_SECRET = fastSecret;
  const child = fork(path.resolve(import.meta.dirname, 'lib/webhook-receiver.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_SECRETS: JSON.stringify([fastSecret]) },
  });
  const ports = await new Promise<{ fast: number; slow: number }>((r) => child.once('message', (m) => r(m as { fast: number; slow: number })));
  const fastUrl = `http://127.0.0.1:${ports.fast}/hook`;
  const slowUrl = `http://127.0.0.1:${ports.slow}/hook`;
  try {
    await withBenchDatabase(async () => {
      const { getDb } = await import('@/lib/db');
      const { createTestTenant } = await import('@/lib/testing/fixtures');
      const db = await getDb();
      const a = await createTestTenant({ name: 'Bench A' });
      await endpoint(db, a.tenant.id, fastUrl, fastSecret);
      console.log(`sustained: ${RATE}/s offered for ${SECONDS} s ...`);
      const s = await sustained(db, child, a.tenant.id);
      console.log(`slow endpoint: draining ${BACKLOG} events five times, alone and beside a 10 s endpoint in turn ...`);
      // Alone and beside the slow endpoint in turn (A S A S A): each S is compared with the mean of the drains either
      // side of it, so drift of the machine or of the growing tables over the run does not count as impact.
      const runs: Awaited<ReturnType<typeof drain>>[] = [];
      for (let i = 0; i < 5; i++) {
        runs.push(await drain(db, child, (await createTestTenant({ name: `Bench B${i}` })).tenant.id, fastUrl, i % 2 === 1 ? slowUrl : null));
      }
      const aloneRuns = runs.filter((_, i) => i % 2 === 0);
      const slowRuns = runs.filter((_, i) => i % 2 === 1);
      const slowdowns = [1, 3].map((i) => 1 - runs[i]!.rate / ((runs[i - 1]!.rate + runs[i + 1]!.rate) / 2));
      const slowdown = slowdowns.reduce((a, b) => a + b, 0) / slowdowns.length;
      const sum = (f: (r: Report) => number) => runs.reduce((n, r) => n + f(r.report), 0);
      const clean = (r: Report) => r.duplicates === 0 && r.badSignatures === 0;
      const rows: Row[] = [
        { name: 'offered events/s', value: String(RATE), target: '', ok: null },
        { name: `deliveries/s over ${SECONDS} s`, value: s.windowRate.toFixed(0), target: '>= 1000', ok: s.windowRate >= 1000 },
        { name: 'slowest 10 s window, deliveries/s', value: s.minTen.toFixed(0), target: '>= 1000', ok: s.minTen >= 1000 },
        { name: '10 s windows, deliveries/s', value: s.tens.map((x) => x.toFixed(0)).join(' '), target: '', ok: null },
        { name: 'latency event -> receipt p50 / p99 ms', value: `${s.report.p50} / ${s.report.p99}`, target: '', ok: null },
        {
          name: 'produced / received (unique) / SUCCEEDED rows',
          value: `${s.produced} / ${s.report.unique} / ${s.ok}`,
          target: 'all equal',
          ok: s.produced === s.report.unique && s.ok === s.produced,
        },
        { name: 'duplicates / bad signatures', value: `${s.report.duplicates} / ${s.report.badSignatures}`, target: '0 / 0', ok: clean(s.report) },
        {
          name: `drain ${BACKLOG} alone, deliveries/s (1st, 3rd, 5th drain)`,
          value: aloneRuns.map((r) => r.rate.toFixed(0)).join(' / '),
          target: 'baseline',
          ok: null,
        },
        {
          name: `drain ${BACKLOG} beside a 10 s endpoint (2nd, 4th)`,
          value: slowRuns.map((r) => r.rate.toFixed(0)).join(' / '),
          target: '',
          ok: null,
        },
        {
          name: 'slowdown vs the drains either side (each / mean)',
          value: `${slowdowns.map((x) => (x * 100).toFixed(1)).join(' / ')} / ${(slowdown * 100).toFixed(1)}%`,
          target: 'mean < 10%',
          ok: slowdown < 0.1,
        },
        {
          name: 'drain duplicates / bad signatures',
          value: `${sum((r) => r.duplicates)} / ${sum((r) => r.badSignatures)}`,
          target: '0 / 0',
          ok: runs.every((r) => clean(r.report)),
        },
      ];
      printTable('Webhook delivery (loopback receiver verifying every signature, real PostgreSQL)', rows);
    });
  } finally {
    child.send({ type: 'exit' });
  }
  process.exit(0);
}
