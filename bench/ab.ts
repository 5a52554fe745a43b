/**
 * A/B of this checkout against another one in one run (issue 50): each checkout runs its own benches, alternating
 * other, this, other, this, … so both see the same background load; the load before each run is printed with it.
 * The other checkout needs its node_modules and its production build (`next build`) in place:
 *   git worktree add /tmp/ab/old 06cc1e3 && cp -al node_modules /tmp/ab/old/ && (cd /tmp/ab/old && npx next build)
 *   npx tsx bench/ab.ts /tmp/ab/old [rounds]
 * AB_STEPS=withdrawals,api runs only those benches (names as in bench/: profile-withdrawals, profile-invoices, withdrawals, api).
 * Figures: the in-process cost of each money-moving request (bench/profile-*.ts: req/s and node CPU ms per request,
 * no HTTP), and over HTTP against the production build (bench/withdrawals.ts, bench/api.ts: req/s, p50 / p99, and
 * the ratio to the trivial route of the same run).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const other = process.argv[2];
if (!other) throw new Error('usage: npx tsx bench/ab.ts <other checkout> [rounds]');
const rounds = Number(process.argv[3] ?? 2);
const sides = [
  { name: path.basename(path.resolve(other)), dir: path.resolve(other) },
  { name: 'this', dir: process.cwd() },
];

type Figures = Record<string, number>;

/** "| name | value | …" rows of a bench's table. */
function tableValue(out: string, name: string): string | undefined {
  const row = out.split('\n').find((l) => l.startsWith(`| ${name} `) || l.startsWith(`| ${name}|`));
  return row?.split('|')[2]?.trim();
}
const num = (v: string | undefined) => (v === undefined ? NaN : Number(v));
const pair = (v: string | undefined) => (v ?? 'NaN / NaN').split('/').map((x) => Number(x.trim())) as [number, number];

const STEPS: { script: string; read: (out: string) => Figures }[] = [
  {
    script: 'bench/profile-withdrawals.ts',
    read: (out) => {
      const m = /([\d.]+) req\/s at 50 concurrent, node CPU ([\d.]+) ms\/req/.exec(out);
      return { 'in-process POST /v1/withdrawals, 100 tenants req/s': num(m?.[1]), 'in-process POST /v1/withdrawals node CPU ms/req': num(m?.[2]) };
    },
  },
  {
    script: 'bench/profile-invoices.ts',
    read: (out) => {
      const m = /([\d.]+) req\/s at 50 concurrent, node CPU ([\d.]+) ms\/req/.exec(out);
      return { 'in-process POST /v1/invoices req/s': num(m?.[1]), 'in-process POST /v1/invoices node CPU ms/req': num(m?.[2]) };
    },
  },
  {
    script: 'bench/withdrawals.ts',
    read: (out) => {
      const trivial = num(tableValue(out, 'trivial GET /api/health req/s'));
      const one = num(tableValue(out, 'POST /v1/withdrawals, 1 tenant req/s'));
      const many = num(tableValue(out, 'POST /v1/withdrawals, 100 tenants req/s'));
      const [oneP50, oneP99] = pair(tableValue(out, 'POST /v1/withdrawals, 1 tenant p50 / p99 ms'));
      const [manyP50, manyP99] = pair(tableValue(out, 'POST /v1/withdrawals, 100 tenants p50 / p99 ms'));
      return {
        'HTTP trivial req/s (withdrawals run)': trivial,
        'HTTP POST /v1/withdrawals, 100 tenants req/s': many,
        'HTTP POST /v1/withdrawals, 100 tenants ÷ trivial %': (many / trivial) * 100,
        'HTTP POST /v1/withdrawals, 100 tenants p50 ms': manyP50,
        'HTTP POST /v1/withdrawals, 100 tenants p99 ms': manyP99,
        'HTTP POST /v1/withdrawals, 1 tenant req/s': one,
        'HTTP POST /v1/withdrawals, 1 tenant ÷ trivial %': (one / trivial) * 100,
        'HTTP POST /v1/withdrawals, 1 tenant p50 ms': oneP50,
        'HTTP POST /v1/withdrawals, 1 tenant p99 ms': oneP99,
      };
    },
  },
  {
    script: 'bench/api.ts',
    read: (out) => {
      const trivial = num(tableValue(out, 'trivial GET /api/health req/s'));
      const me = num(tableValue(out, 'GET /v1/tenants/me req/s'));
      const inv = num(tableValue(out, 'POST /v1/invoices req/s'));
      return {
        'HTTP trivial req/s (api run)': trivial,
        'HTTP GET /v1/tenants/me ÷ trivial %': (me / trivial) * 100,
        'HTTP GET /v1/tenants/me p99 ms': pair(tableValue(out, 'GET /v1/tenants/me p50 / p99 ms'))[1],
        'HTTP POST /v1/invoices req/s': inv,
        'HTTP POST /v1/invoices ÷ trivial %': (inv / trivial) * 100,
        'HTTP POST /v1/invoices p99 ms': pair(tableValue(out, 'POST /v1/invoices p50 / p99 ms'))[1],
      };
    },
  },
];

const only = process.env.AB_STEPS?.split(',').map((s) => `bench/${s.trim()}.ts`);
const steps = only ? STEPS.filter((s) => only.includes(s.script)) : STEPS;

const runs: { side: string; round: number; load: number; figures: Figures }[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const side of sides) {
    const figures: Figures = {};
    const load = os.loadavg()[0]!;
    for (const step of steps) {
      const r = spawnSync(path.join(side.dir, 'node_modules/.bin/tsx'), [step.script], {
        cwd: side.dir,
        encoding: 'utf8',
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
        maxBuffer: 64 * 1024 * 1024,
      });
      if (r.status !== 0) console.error(`[ab] ${side.name} ${step.script} exited ${r.status}:\n${r.stderr.slice(-2000)}`);
      Object.assign(figures, step.read(r.stdout));
      console.error(`[ab] round ${round}, ${side.name}: ${step.script} done (load ${os.loadavg()[0]!.toFixed(2)})`);
    }
    runs.push({ side: side.name, round, load, figures });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};
const fmt = (x: number) => (Number.isNaN(x) ? '–' : x >= 100 ? x.toFixed(0) : x.toFixed(x >= 10 ? 1 : 3));
const names = Object.keys(runs[0]!.figures);
console.log(`\n## A/B: ${sides[0]!.name} vs this checkout, ${rounds} rounds alternating (${os.cpus().length} cores, Node ${process.version})\n`);
console.log(`| figure | ${runs.map((r) => `${r.side} r${r.round}`).join(' | ')} | ${sides.map((s) => `${s.name} median`).join(' | ')} |`);
console.log(`|---|${runs.map(() => '---').join('|')}|${sides.map(() => '---').join('|')}|`);
console.log(`| load average (1 min) at start | ${runs.map((r) => r.load.toFixed(2)).join(' | ')} | ${sides.map(() => '').join(' | ')} |`);
for (const n of names) {
  const meds = sides.map((s) => median(runs.filter((r) => r.side === s.name).map((r) => r.figures[n]!)));
  console.log(`| ${n} | ${runs.map((r) => fmt(r.figures[n]!)).join(' | ')} | ${meds.map(fmt).join(' | ')} |`);
}
