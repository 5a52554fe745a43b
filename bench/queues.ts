/**
 * Webhook delivery against the PostgreSQL job queues a team would use instead
 * (issue 33): graphile-worker, pg-boss and our path (outbox → fan-out → claim
 * → record the outcome, transport swapped for an instant one), on the same
 * PostgreSQL, each in a database of its own created and dropped here, 1 KB
 * payloads. A run: start the worker (idle), then add N jobs in batches of
 * 1,000 and wait until every job's final outcome is written; jobs/s is N over
 * that time (adding included), database CPU per job is the user + system time
 * of that database's backends over it (/proc, bench/lib/db-cpu.ts), worker CPU
 * per job the bench process's own. Plain mix, then the retry mix (30 % of first
 * attempts fail, each retried once after about 3 s). Each competitor's
 * concurrency is first calibrated (its best of two settings on N/4 jobs); then
 * ROUNDS rounds interleave the three in a rotating order, and the ratio is
 * taken within each round (the machine is shared: load moves between runs).
 * Run: npx tsx bench/queues.ts (BENCH_QUEUE_JOBS, default 20,000; BENCH_QUEUE_ROUNDS, default 3).
 */
import os from 'node:os';
import postgres from 'postgres';
import { RETRY_DELAY_S, Tracker, type Mix, type QueueSystem } from './queues/common';
import { meterDatabaseCpu, METER_APP } from './lib/db-cpu';
import { printTable, withBenchDatabase, type Row } from './lib/harness';

process.env.WEBHOOK_RETRY_SCALE ??= String(RETRY_DELAY_S / 30);
process.env.LOG_LEVEL ??= 'error';
const N = Number(process.env.BENCH_QUEUE_JOBS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_QUEUE_ROUNDS ?? 3);
const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

interface Result {
  rate: number;
  dbUs: number;
  nodeUs: number;
  attemptsPerJob: number;
}

type Admin = ReturnType<typeof postgres>;

async function measure(admin: Admin, sys: QueueSystem, mix: Mix, from: number, n: number): Promise<Result> {
  const tracker = new Tracker(mix);
  await sys.start(mix, tracker);
  await sleep(500);
  const meter = await meterDatabaseCpu(admin, sys.datname);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await sys.enqueue(from, n);
  const deadline = Date.now() + 300_000;
  while (tracker.succeeded < n || (await sys.left()) > 0) {
    if (Date.now() > deadline) throw new Error(`${sys.name} ${mix}: ${tracker.succeeded} of ${n} after 300 s`);
    await sleep(tracker.succeeded < n ? 10 : 20);
  }
  const ms = performance.now() - t0;
  const db = await meter.stop();
  const node = process.cpuUsage(cpu0);
  await sys.stop();
  return { rate: (n / ms) * 1000, dbUs: (db * 1e6) / n, nodeUs: (node.user + node.system) / n, attemptsPerJob: tracker.attempts / n };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const load: number[] = [os.loadavg()[0]!];
  await withBenchDatabase(async (ourUrl) => {
    const { getDb } = await import('@/lib/db');
    const { ourPath } = await import('./queues/ours');
    const { graphileWorker } = await import('./queues/graphile');
    const { pgBoss } = await import('./queues/pgboss');
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connection: { application_name: METER_APP } });
    const ourDb = new URL(ourUrl).pathname.slice(1);
    const dbUrl = (name: string) => Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
    const names = { graphile: `${ourDb}_gw`, boss: `${ourDb}_boss` };
    for (const name of Object.values(names)) await admin.unsafe(`create database ${name}`);
    const open: QueueSystem[] = [];
    let seq = 0;
    try {
      const ours = await ourPath(await getDb(), ourUrl, ourDb);
      open.push(ours);
      // Calibration: each competitor's better of two settings (the documented throughput one and a lighter one).
      const pick = async (label: string, makers: (() => Promise<QueueSystem>)[]) => {
        let best: { sys: QueueSystem; rate: number } | null = null;
        for (const make of makers) {
          const sys = await make();
          const r = await measure(admin, sys, 'plain', (seq += N), Math.ceil(N / 4));
          console.log(`calibration ${label}: ${fmt(r.rate)} jobs/s with ${sys.settings}`);
          if (best && r.rate <= best.rate) {
            await sys.close();
            continue;
          }
          if (best) await best.sys.close();
          best = { sys, rate: r.rate };
        }
        open.push(best!.sys);
        return best!.sys;
      };
      const graphile = await pick('graphile-worker', [
        () => graphileWorker(dbUrl(names.graphile), names.graphile, 24),
        () => graphileWorker(dbUrl(names.graphile), names.graphile, 8),
      ]);
      const boss = await pick('pg-boss', [() => pgBoss(dbUrl(names.boss), names.boss, 100, 4), () => pgBoss(dbUrl(names.boss), names.boss, 500, 2)]);
      const systems = [ours, graphile, boss];
      const results: Record<Mix, Record<string, Result[]>> = { plain: {}, retry: {} };
      const ratios: Record<Mix, number[]> = { plain: [], retry: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const mix of ['plain', 'retry'] as Mix[]) {
          const order = systems.map((_, i) => systems[(i + round) % systems.length]!);
          const got: Record<string, Result> = {};
          for (const sys of order) {
            got[sys.name] = await measure(admin, sys, mix, (seq += N), N);
            (results[mix][sys.name] ??= []).push(got[sys.name]!);
            console.log(
              `round ${round + 1} ${mix} ${sys.name}: ${fmt(got[sys.name]!.rate)} jobs/s, database ${fmt(got[sys.name]!.dbUs)} µs/job, worker ${fmt(got[sys.name]!.nodeUs)} µs/job (load ${os.loadavg()[0]!.toFixed(2)})`,
            );
            load.push(os.loadavg()[0]!);
          }
          ratios[mix].push(got.ours!.rate / Math.max(got['graphile-worker']!.rate, got['pg-boss']!.rate));
        }
      }
      const names3 = ['ours', 'graphile-worker', 'pg-boss'];
      const rows: Row[] = [];
      for (const mix of ['plain', 'retry'] as Mix[]) {
        const m = (name: string, f: (r: Result) => number) => median(results[mix][name]!.map(f));
        const label = mix === 'plain' ? 'plain mix' : 'retry mix (30 % fail once)';
        rows.push(
          {
            name: `${label}: jobs/s, ours / graphile-worker / pg-boss (median of ${ROUNDS})`,
            value: names3.map((n) => fmt(m(n, (r) => r.rate))).join(' / '),
            target: '',
            ok: null,
          },
          {
            name: `${label}: database CPU µs per job, ours / graphile-worker / pg-boss`,
            value: names3.map((n) => fmt(m(n, (r) => r.dbUs))).join(' / '),
            target: '',
            ok: null,
          },
          {
            name: `${label}: worker CPU µs per job, ours / graphile-worker / pg-boss`,
            value: names3.map((n) => fmt(m(n, (r) => r.nodeUs))).join(' / '),
            target: '',
            ok: null,
          },
          {
            name: `${label}: attempts per job, ours / graphile-worker / pg-boss`,
            value: names3.map((n) => m(n, (r) => r.attemptsPerJob).toFixed(2)).join(' / '),
            target: mix === 'plain' ? '1.00' : '1.30',
            ok: names3.every((n) => Math.abs(m(n, (r) => r.attemptsPerJob) - (mix === 'plain' ? 1 : 1.3)) < 0.005),
          },
          {
            name: `${label}: ours ÷ the faster of the two, median (per round)`,
            value: `${median(ratios[mix]).toFixed(2)}× (${ratios[mix].map((x) => x.toFixed(2)).join(', ')})`,
            target: '>= 1.0× (stretch 1.5×)',
            ok: median(ratios[mix]) >= 1,
          },
        );
      }
      rows.push(
        { name: 'jobs per run / rounds', value: `${N} / ${ROUNDS}`, target: '', ok: null },
        {
          name: 'load average (1 min) over the run, min-max',
          value: `${Math.min(...load).toFixed(2)}-${Math.max(...load).toFixed(2)}`,
          target: '',
          ok: null,
        },
        ...systems.map((s) => ({ name: `settings: ${s.name}`, value: s.settings, target: '', ok: null })),
      );
      printTable(`Webhook path vs PostgreSQL job queues (${N} jobs per run, 1 KB payloads, instant transport)`, rows);
    } finally {
      for (const sys of open) await sys.close().catch(() => {});
      for (const name of Object.values(names)) await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    }
  });
  process.exit(0);
}
