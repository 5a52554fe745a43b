/**
 * Shared by the benchmarks: a fresh PostgreSQL database, the production build
 * served by `next start` on loopback, and cleanup afterwards.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import postgres from 'postgres';

export interface BenchServer {
  baseUrl: string;
  databaseUrl: string;
}

const adminUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function withBenchDatabase<T>(fn: (databaseUrl: string) => Promise<T>): Promise<T> {
  // Benches call lib functions in-process: install the invoice event hooks as boot() and the worker do.
  const installHooks = async () => (await import('@/lib/payment-hooks')).installPaymentHooks();
  if (process.env.DATABASE_URL && process.env.BENCH_REUSE_DB === '1') {
    await installHooks();
    return fn(process.env.DATABASE_URL);
  }
  const name = `gw_bench_${Date.now()}_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  process.env.APP_ENV ??= 'test';
  try {
    const { migrate } = await import('@/lib/db');
    await migrate();
    await installHooks();
    return await fn(url.toString());
  } finally {
    const { closeDb } = await import('@/lib/db');
    await closeDb();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

export function ensureBuild() {
  if (existsSync('.next/BUILD_ID') && process.env.BENCH_REBUILD !== '1') return;
  const r = spawnSync('node_modules/.bin/next', ['build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) throw new Error('next build failed');
}

export async function startServer(
  databaseUrl: string,
  port: number,
  extraEnv: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('node_modules/.bin/next', ['start', '-H', '127.0.0.1', '-p', String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      APP_ENV: 'test',
      WORKER_INLINE: 'false',
      LOG_LEVEL: 'warn',
      NEXT_TELEMETRY_DISABLED: '1',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('next start did not come up');
}

/** The job worker (deposit-address pool, webhooks, ...) as production runs it beside the app. */
export function startWorker(databaseUrl: string, extraEnv: Record<string, string> = {}): ChildProcess {
  return spawn('node_modules/.bin/tsx', ['scripts/worker.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, APP_ENV: 'test', LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export function stopServer(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface Row {
  name: string;
  value: string;
  target: string;
  ok: boolean | null;
}

export function printTable(title: string, rows: Row[]) {
  const w = [
    Math.max(...rows.map((r) => r.name.length), 6),
    Math.max(...rows.map((r) => r.value.length), 5),
    Math.max(...rows.map((r) => r.target.length), 6),
  ];
  console.log(`\n${title}`);
  console.log(`| ${'figure'.padEnd(w[0]!)} | ${'value'.padEnd(w[1]!)} | ${'target'.padEnd(w[2]!)} | ok |`);
  console.log(`|${'-'.repeat(w[0]! + 2)}|${'-'.repeat(w[1]! + 2)}|${'-'.repeat(w[2]! + 2)}|----|`);
  for (const r of rows) {
    console.log(`| ${r.name.padEnd(w[0]!)} | ${r.value.padEnd(w[1]!)} | ${r.target.padEnd(w[2]!)} | ${r.ok === null ? '  ' : r.ok ? 'ok' : 'NO'} |`);
  }
}
