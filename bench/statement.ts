/**
 * The statement export of a busy year: 1,000,000 ledger entries of one tenant and asset (BENCH_STATEMENT_ENTRIES
 * to change), exported through GET /v1/balance-transactions/statement from `next start`. Figures: seconds
 * to the last byte and the server's peak RSS while it streams (its process tree, sampled every 50 ms), against
 * its RSS before. The CSV is checked on the way: every entry once, opening + entries = closing.
 * Targets: under 60 s, and the RSS growth under 150 MB (bounded: an export held in memory needs several GB).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { Decimal } from '@/lib/money';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ensureBuild, printTable, startServer, stopServer, withBenchDatabase, type Row } from './lib/harness';

const ENTRIES = Number(process.env.BENCH_STATEMENT_ENTRIES ?? 1_000_000);

/** Resident memory (bytes) of a process and all its descendants. */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone */
    }
  }
  let total = 0;
  const walk = (pid: number) => {
    try {
      const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
      total += Number(m?.[1] ?? 0) * 1024;
    } catch {
      /* gone */
    }
    for (const c of children.get(pid) ?? []) walk(c);
  };
  walk(root);
  return total;
}

export async function benchStatement(baseUrl: string, serverPid: number): Promise<Row[]> {
  const t = await createTestTenant({ name: 'Bench statement' });
  const db = t.db;
  await db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${t.tenant.id}`);
  const seeded = Date.now();
  // A year of entries: credits of 1.000001 and debits of 0.5 alternating (the balance never goes below 0), at 18 decimals.
  await db.execute(sql`
    insert into ledger_entries (id, tenant_id, mode, currency, amount, kind, reference_type, reference_id, balance_after, created_at)
    select 'led_bench_' || lpad(i::text, 8, '0'), ${t.tenant.id}, 'test', 'USDT',
           case when i % 2 = 0 then 1.000001 else -0.5 end,
           case when i % 2 = 0 then 'bench_credit' else 'bench_debit' end, 'bench', 'bench-' || i, 0,
           '2025-01-01T00:00:00Z'::timestamptz + (i * (31536000.0 / ${ENTRIES})) * interval '1 second'
      from generate_series(0, ${ENTRIES - 1}) as i`);
  await db.execute(sql`analyze ledger_entries`);
  const seedSeconds = (Date.now() - seeded) / 1000;

  const before = treeRss(serverPid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(serverPid))), 50);
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/balance-transactions/statement?asset=USDT&from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`, {
    headers: { authorization: `Bearer ${t.test}` },
  });
  if (res.status !== 200) throw new Error(`statement answered ${res.status}: ${await res.text()}`);
  // Read the stream line by line, checking as it goes, without keeping it.
  const decoder = new TextDecoder();
  let rest = '';
  let lines = 0;
  let opening: Decimal | null = null;
  let sum = new Decimal(0);
  let closing: Decimal | null = null;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    const parts = rest.split('\r\n');
    rest = parts.pop()!;
    for (const l of parts) {
      lines++;
      const cells = l.split(',');
      if (cells[2] === 'opening_balance') opening = new Decimal(cells[12]!);
      else if (cells[2] === 'closing_balance') closing = new Decimal(cells[12]!);
      else if (lines > 1) sum = sum.plus(cells[11]!);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, treeRss(serverPid));
  const entries = lines - 3;
  const adds = opening !== null && closing !== null && opening.plus(sum).eq(closing);
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;
  return [
    {
      name: `export of ${ENTRIES.toLocaleString('en')} entries (seeded in ${seedSeconds.toFixed(0)} s)`,
      value: `${seconds.toFixed(1)} s (${Math.round(entries / seconds).toLocaleString('en')} rows/s)`,
      target: '< 60 s',
      ok: seconds < 60,
    },
    {
      name: 'server peak RSS while streaming (before)',
      value: `${mb(peak)} (${mb(before)})`,
      target: 'growth < 150 MB',
      ok: peak - before < 150 * 1024 * 1024,
    },
    {
      name: 'every entry once, opening + entries = closing',
      value: `${entries.toLocaleString('en')} rows, ${adds ? 'adds up' : 'DOES NOT ADD UP'}`,
      target: 'all, exact',
      ok: entries === ENTRIES && adds,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBuild();
  await withBenchDatabase(async (databaseUrl) => {
    const { url, child } = await startServer(databaseUrl, 3207);
    try {
      printTable('Statement export', await benchStatement(url, child.pid!));
    } finally {
      await stopServer(child);
    }
  });
}
