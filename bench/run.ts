/**
 * npm run bench: every benchmark of bench/ against the production build and
 * real PostgreSQL, one after another, then one combined table (each figure
 * with its target; every bench measures the trivial-route baseline in its own run).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { ensureBuild } from './lib/harness';

const BENCHES = [
  'api',
  'withdrawals',
  'statements-per-request',
  'watcher',
  'detection',
  'tron',
  'tron-sweep',
  'tron-volume',
  'solana',
  'queues',
  'webhooks',
  'exchange',
  'auth-abuse',
  'abuse',
  'statement',
  'screening',
  'first-minutes',
  'payouts',
].filter((b) => existsSync(`bench/${b}.ts`));
const only = process.argv.slice(2);
// Only these serve the production build (next start); the others call lib/ in-process.
const NEEDS_BUILD = ['api', 'withdrawals', 'auth-abuse', 'statement'];

if ((only.length ? only : BENCHES).some((b) => NEEDS_BUILD.includes(b))) ensureBuild();
const rows: string[] = [];
for (const name of only.length ? BENCHES.filter((b) => only.includes(b)) : BENCHES) {
  const loadBefore = os.loadavg()[0]!;
  console.log(`\n### bench/${name}.ts (load ${loadBefore.toFixed(2)})`);
  const r = spawnSync('node_modules/.bin/tsx', [`bench/${name}.ts`], { encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(r.stdout);
  process.stderr.write(
    r.stderr
      .split('\n')
      .filter((l) => !l.includes('nodedir'))
      .join('\n'),
  );
  const table = r.stdout.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| figure'));
  if (r.status !== 0 || table.length === 0) rows.push(`| ${name} | bench failed (exit ${r.status}) | | NO |`);
  for (const line of table) rows.push(`| ${name} ${line.slice(1)}`);
  // Every figure of a bench is read against the machine's load around it (1-minute average, 2 cores here).
  rows.push(`| ${name} | load average (1 min) before / after | ${loadBefore.toFixed(2)} / ${os.loadavg()[0]!.toFixed(2)} | | |`);
}

console.log(
  `\n## Performance (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version})\n`,
);
console.log('| bench | figure | value | target | ok |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(r);
