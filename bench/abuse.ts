/**
 * npm run bench (abuse): one row per abuse scenario, each measuring a victim
 * tenant's p99 alone and under the attack. Target per scenario: p99 under
 * attack at most 2x alone and no victim request refused.
 *
 * The scenario list is fixed; files not present yet are skipped. A scenario
 * may return several rows (one per attack). Each runs in
 * its own process (its own database and environment): `tsx bench/abuse.ts <name>`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AbuseRow } from './abuse/types';

const SCENARIOS = ['signup-flood', 'login-race', 'exchange-quote-flood', 'webhook-slot-hog', 'store-order-flood', 'gas-drain', 'refund-hijack'];
const here = path.dirname(fileURLToPath(import.meta.url));
const file = (name: string) => path.join(here, 'abuse', `${name}.ts`);
const MARK = 'ABUSE_ROW ';

async function child(name: string) {
  // A scenario with several attacks gives a row for each.
  const mod = (await import(file(name))) as { default: () => Promise<AbuseRow | AbuseRow[]> };
  for (const row of [await mod.default()].flat()) console.log(MARK + JSON.stringify(row));
  process.exit(0);
}

function parent(only: string[]) {
  const rows: (AbuseRow | { scenario: string; failed: string })[] = [];
  for (const name of SCENARIOS.filter((s) => only.length === 0 || only.includes(s))) {
    if (!existsSync(file(name))) {
      console.log(`(skipped ${name}: bench/abuse/${name}.ts not present)`);
      continue;
    }
    console.log(`\n### abuse scenario ${name}`);
    const r = spawnSync('node_modules/.bin/tsx', [fileURLToPath(import.meta.url), '--scenario', name], {
      encoding: 'utf8',
      env: process.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = r.stdout.split('\n');
    process.stdout.write(out.filter((l) => !l.startsWith(MARK)).join('\n'));
    process.stderr.write(
      r.stderr
        .split('\n')
        .filter((l) => !l.includes('nodedir'))
        .join('\n'),
    );
    const lines = out.filter((l) => l.startsWith(MARK));
    if (lines.length === 0 || r.status !== 0) rows.push({ scenario: name, failed: `exit ${r.status}` });
    else for (const l of lines) rows.push(JSON.parse(l.slice(MARK.length)) as AbuseRow);
  }
  console.log('\n## Abuse (victim p99 alone vs under attack)\n');
  console.log('| figure | value | target | ok |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    if ('failed' in row) {
      console.log(`| ${row.scenario} | bench failed (${row.failed}) | ratio <= 2, 0 refused | NO |`);
      continue;
    }
    const ratio = row.victimAttackP99Ms / Math.max(row.victimAloneP99Ms, 1e-9);
    const violations = row.violations ?? [];
    const met = ratio <= 2 && row.victimRefused === 0 && violations.length === 0;
    const value = `p99 ${row.victimAloneP99Ms} → ${row.victimAttackP99Ms} ms (×${ratio.toFixed(2)}), ${row.victimRefused}/${row.victimRequests} refused${row.note ? `; ${row.note}` : ''}${violations.map((v) => `; FAILED: ${v}`).join('')}`;
    console.log(`| ${row.scenario} | ${value} | ratio <= 2, 0 refused | ${met ? 'yes' : 'NO'} |`);
  }
}

const i = process.argv.indexOf('--scenario');
if (i >= 0) await child(process.argv[i + 1]!);
else parent(process.argv.slice(2));
