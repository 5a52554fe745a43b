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
      const only = (process.env.BENCH_QUEUE_SYSTEMS ?? 'ours,graphile-worker,pg-boss').split(',');
      const db = await getDb();
      // Each queue's settings to choose from: ours, the default concurrency and a larger one (with an instant
      // transport the slots only bound the claim batches); the competitors, their documented throughput
      // settings and a lighter or heavier variant.
      const variants: Record<string, (() => Promise<QueueSystem>)[]> = {
        ours: [128, 2048].map((c) => () => ourPath(db, ourUrl, ourDb, c)),
        'graphile-worker': [24, 8].map((c) => () => graphileWorker(dbUrl(names.graphile), names.graphile, c)),
        'pg-boss': [
          [100, 4],
          [500, 2],
        ].map(
          ([batch, loops]) =>
            () =>
              pgBoss(dbUrl(names.boss), names.boss, batch!, loops!),
        ),
      };
      const made = new Map<() => Promise<QueueSystem>, QueueSystem>();
      const instance = async (make: () => Promise<QueueSystem>) => {
        let sys = made.get(make);
        if (!sys) {
          sys = await make();
          made.set(make, sys);
          open.push(sys);
        }
        return sys;
      };
      // Calibration, per mix: each queue's better setting on N/4 jobs.
      const chosen: Record<Mix, QueueSystem[]> = { plain: [], retry: [] };
      for (const mix of ['plain', 'retry'] as Mix[]) {
        for (const name of Object.keys(variants).filter((n) => only.includes(n))) {
          let best: { sys: QueueSystem; rate: number } | null = null;
          for (const make of variants[name]!) {
            const sys = await instance(make);
            const r = await measure(admin, sys, mix, (seq += N), Math.ceil(N / 4));
            console.log(`calibration ${mix} ${name}: ${fmt(r.rate)} jobs/s with ${sys.settings}`);
            if (!best || r.rate > best.rate) best = { sys, rate: r.rate };
          }
          chosen[mix].push(best!.sys);
        }
      }
      const results: Record<Mix, Record<string, Result>[]> = { plain: [], retry: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const mix of ['plain', 'retry'] as Mix[]) {
          const systems = chosen[mix];
          const got: Record<string, Result> = {};
          // A rotating order, so no queue always runs first (or right after another's leftovers).
          for (const sys of systems.map((_, i) => systems[(i + round) % systems.length]!)) {
            const r = (got[sys.name] = await measure(admin, sys, mix, (seq += N), N));
            load.push(os.loadavg()[0]!);
            console.log(
              `round ${round + 1} ${mix} ${sys.name}: ${fmt(r.rate)} jobs/s, database ${fmt(r.dbUs)} µs/job, worker ${fmt(r.nodeUs)} µs/job (load ${load.at(-1)!.toFixed(2)})`,
            );
          }
          results[mix].push(got);
        }
      }
      const names3 = ['ours', 'graphile-worker', 'pg-boss'].filter((n) => only.includes(n));
      const them = names3.filter((n) => n !== 'ours');
      const rows: Row[] = [];
      for (const mix of ['plain', 'retry'] as Mix[]) {
        const m = (name: string, f: (r: Result) => number) => median(results[mix].map((g) => f(g[name]!)));
        const ratios = results[mix].map((g) => g.ours?.rate ?? 0).map((x, i) => x / Math.max(...them.map((n) => results[mix][i]![n]!.rate)));
        const label = mix === 'plain' ? 'plain mix' : 'retry mix (30 % fail once)';
        rows.push(
          {
            name: `${label}: jobs/s, ${names3.join(' / ')} (median of ${ROUNDS})`,
            value: names3.map((n) => fmt(m(n, (r) => r.rate))).join(' / '),
            target: '',
            ok: null,
          },
          {
            name: `${label}: database CPU µs per job, ${names3.join(' / ')}`,
            value: names3.map((n) => fmt(m(n, (r) => r.dbUs))).join(' / '),
            target: '',
            ok: null,
          },
          {
            name: `${label}: worker CPU µs per job, ${names3.join(' / ')}`,
            value: names3.map((n) => fmt(m(n, (r) => r.nodeUs))).join(' / '),
            target: '',
            ok: null,
          },
          {
            name: `${label}: database CPU µs per job by round, ${names3.join(' / ')}`,
            value: names3.map((n) => results[mix].map((g) => fmt(g[n]!.dbUs)).join(', ')).join(' / '),
            target: '',
            ok: null,
          },
          {
            name: `${label}: attempts per job, ${names3.join(' / ')}`,
            value: names3.map((n) => m(n, (r) => r.attemptsPerJob).toFixed(2)).join(' / '),
            target: mix === 'plain' ? '1.00' : '1.30',
            ok: names3.every((n) => Math.abs(m(n, (r) => r.attemptsPerJob) - (mix === 'plain' ? 1 : 1.3)) < 0.005),
          },
        );
        if (names3.includes('ours') && them.length)
          rows.push({
            name: `${label}: ours ÷ the faster of ${them.join(', ')}, median (per round)`,
            value: `${median(ratios).toFixed(2)}× (${ratios.map((x) => x.toFixed(2)).join(', ')})`,
            target: '>= 1.0× in every round, 1.5× median',
            ok: Math.min(...ratios) >= 1 && median(ratios) >= 1.5,
          });
      }
      rows.push(
        { name: 'jobs per run / rounds', value: `${N} / ${ROUNDS}`, target: '', ok: null },
        {
          name: 'load average (1 min) over the run, min-max',
          value: `${Math.min(...load).toFixed(2)}-${Math.max(...load).toFixed(2)}`,
          target: '',
          ok: null,
        },
        ...(['plain', 'retry'] as Mix[]).flatMap((mix) =>
          chosen[mix].map((s) => ({ name: `settings, ${mix} mix: ${s.name}`, value: s.settings, target: '', ok: null })),
        ),
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
