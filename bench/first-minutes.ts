/**
 * The first minutes of a new user (issue 45): `npm run dev` on a fresh data directory (first start: migrations, the
 * demo tenant), then the README's quick path with the test key it prints: create an invoice, pay it with the test
 * helper, wait for PAID_OUT. Figures, from the moment `npm run dev` starts: the first page served (GET /sign-in, 200),
 * the invoice created, and the invoice paid out (also from "Pay"). Each line the stack prints is timed too, so a
 * slow phase shows (BENCH_FIRST_MINUTES_LOG=1 prints them), and the stack runs with DEV_TIMINGS=1: a second table says
 * where the first page's time went (the dev start's phases, Next's steps). Targets: first page < 30 s; paid out < 3 min.
 * Uses no DATABASE_URL (the embedded database, as a new user has it); the port is free, the data directory fresh.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { NEXT_STEPS, parseStartTimings } from '@/lib/dev/start-timings';
import { freePort } from '@/lib/testing/anvil';
import { DevProcess } from '@/lib/testing/dev-process';
import { printTable, type Row } from './lib/harness';

const FIRST_PAGE_TARGET_S = 30;
const PAID_OUT_TARGET_S = 180;

const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-first-minutes-'));
const port = await freePort();
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEV_TIMINGS: '1' } as NodeJS.ProcessEnv;
for (const name of ['DATABASE_URL', 'NODE_ENV', 'TEST_RPC_URL', 'LIVE_RPC_URL', 'EXCHANGE_URL']) delete env[name];
const dev = new DevProcess({ env, port, name: 'npm run dev' });
const base = `http://127.0.0.1:${port}`;
const load = () => os.loadavg()[0]!.toFixed(1);
const loads = [load()];

/** Polls fn every 250 ms until it returns a value, or fails after timeoutMs. */
async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s\n${dev.log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const t0 = Date.now();
const since = () => (Date.now() - t0) / 1000;
// The stack's own lines, timed from the start (the phases: chains, Next ready, instrumentation, the first compile).
// Read as they come, never the whole log again (a stack printing errors in a loop made that run out of memory).
const timed: { at: number; line: string }[] = [];
let consumed = 0;
let partial = '';
const tick = setInterval(() => {
  const lines = (partial + dev.log.slice(consumed)).split('\n');
  consumed = dev.log.length;
  partial = lines.pop()!;
  for (const line of lines) timed.push({ at: since(), line });
}, 100);
const rows: Row[] = [];
try {
  // The user's first page is what counts (start() waits for it too, rather than compiling /api/health beside it).
  const started = dev.start(600_000, '/sign-in');
  await until(
    'first page',
    async () => {
      const r = await fetch(`${base}/sign-in`, { signal: AbortSignal.timeout(120_000) });
      return r.status === 200 ? true : undefined;
    },
    600_000,
  );
  const firstPage = since();
  loads.push(load());
  await started;
  const creds = await until(
    'demo credentials',
    async () => JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { testKey: string },
    120_000,
  );
  const key = creds.testKey;
  const api = async (method: string, url: string, body?: unknown) => {
    const r = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await r.json()) as Record<string, unknown>;
    if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(json)}`);
    return json;
  };
  const invoice = await api('POST', '/v1/invoices', { amount: '10.00' });
  const created = since();
  const payAt = Date.now();
  await api('POST', `/v1/test-helpers/invoices/${String(invoice.id)}/pay`, { amount: '10.00' });
  await until('PAID_OUT', async () => ((await api('GET', `/v1/invoices/${String(invoice.id)}`)).status === 'PAID_OUT' ? true : undefined), 600_000);
  const paidOut = since();
  loads.push(load());
  rows.push(
    {
      name: 'npm run dev → first page (GET /sign-in 200)',
      value: `${firstPage.toFixed(1)} s`,
      target: `< ${FIRST_PAGE_TARGET_S} s`,
      ok: firstPage < FIRST_PAGE_TARGET_S,
    },
    { name: 'npm run dev → invoice created (API, demo test key)', value: `${created.toFixed(1)} s`, target: '', ok: null },
    { name: 'Pay (test helper) → PAID_OUT', value: `${((Date.now() - payAt) / 1000).toFixed(1)} s`, target: '', ok: null },
    {
      name: 'npm run dev → first invoice PAID_OUT',
      value: `${paidOut.toFixed(1)} s`,
      target: `< ${PAID_OUT_TARGET_S} s`,
      ok: paidOut < PAID_OUT_TARGET_S,
    },
  );
} finally {
  clearInterval(tick);
  if (process.env.BENCH_FIRST_MINUTES_LOG === '1') console.log(timed.map((t) => `${t.at.toFixed(1).padStart(6)} s  ${t.line}`).join('\n'));
  await dev.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
printTable(`First minutes (${os.cpus().length} cores, load ${loads.join(' → ')})`, rows);
printTable('Where the first page went (s since npm run dev started; the dev start from DEV_TIMINGS=1, Next from its log)', breakdown());

/** The dev start's phases (its "[dev] start timings" line) and Next's steps (the first line of each), in order. */
function breakdown(): Row[] {
  const devLine = timed.find((t) => t.line.includes('[dev] start timings'))?.line;
  const phases = devLine ? parseStartTimings(devLine) : [];
  const rows = phases.map((p) => ({
    at: p.from,
    name: `npm run dev: ${p.name}`,
    value: p.to === p.from ? p.from.toFixed(1) : `${p.from.toFixed(1)} → ${p.to === undefined ? '…' : p.to.toFixed(1)}`,
  }));
  for (const [name, re] of NEXT_STEPS) {
    const t = timed.find((x) => re.test(x.line));
    if (t) rows.push({ at: t.at, name: `next: ${name}`, value: t.at.toFixed(1) });
  }
  const boot = timed.find((t) => t.line.includes('[boot] timings'));
  // Its figures are on Next's clock (since next-server started), the row sits where the line was printed.
  if (boot) rows.push({ at: boot.at, name: 'next: boot done (s since Next started)', value: boot.line.slice(boot.line.indexOf(':') + 2) });
  return rows.sort((a, b) => a.at - b.at).map((r) => ({ name: r.name, value: r.value, target: '', ok: null }));
}
