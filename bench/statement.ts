/**
 * The statement export of a busy year: 1,000,000 ledger entries of one tenant and asset (BENCH_STATEMENT_ENTRIES
 * to change), exported through GET /v1/balance-transactions/statement from `next start`, twice: as deployed,
 * and with the server's old generation capped at 96 MB (BENCH_STATEMENT_HEAP_MB), where an export that kept its
 * rows would run out of memory. Figures: seconds to the last byte and the server's peak RSS while it streams
 * (its process tree, sampled every 50 ms) against its RSS before. The CSV is checked on the way: every entry
 * once, opening + entries = closing. Targets: under 60 s; RSS growth under 150 MB.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { Decimal } from '@/lib/money';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ensureBuild, printTable, startServer, stopServer, withBenchDatabase, type Row } from './lib/harness';

const ENTRIES = Number(process.env.BENCH_STATEMENT_ENTRIES ?? 1_000_000);
const HEAP_MB = Number(process.env.BENCH_STATEMENT_HEAP_MB ?? 96);

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

/** One tenant with ENTRIES entries spread over 2025 (credits of 1.000001 and debits of 0.5 alternating, 18 decimals). */
async function seed() {
  const t = await createTestTenant({ name: 'Bench statement' });
  await t.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${t.tenant.id}`);
  const started = Date.now();
  await t.db.execute(sql`
    insert into ledger_entries (id, tenant_id, mode, currency, amount, kind, reference_type, reference_id, balance_after, created_at)
    select 'led_bench_' || lpad(i::text, 8, '0'), ${t.tenant.id}, 'test', 'USDT',
           case when i % 2 = 0 then 1.000001 else -0.5 end,
           case when i % 2 = 0 then 'bench_credit' else 'bench_debit' end, 'bench', 'bench-' || i, 0,
           '2025-01-01T00:00:00Z'::timestamptz + (i * (31536000.0 / ${ENTRIES})) * interval '1 second'
      from generate_series(0, ${ENTRIES - 1}) as i`);
  await t.db.execute(sql`analyze ledger_entries`);
  return { key: t.test, seconds: (Date.now() - started) / 1000 };
}

/** Exports the year once from the server at baseUrl, reading the CSV line by line without keeping it. */
async function exportYear(baseUrl: string, serverPid: number, key: string) {
  const before = treeRss(serverPid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, treeRss(serverPid))), 50);
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/balance-transactions/statement?asset=USDT&from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (res.status !== 200) throw new Error(`statement answered ${res.status}: ${await res.text()}`);
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
  return { seconds, before, peak, entries, adds: opening !== null && closing !== null && opening.plus(sum).eq(closing) };
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MB`;

export async function benchStatement(databaseUrl: string): Promise<Row[]> {
  const { key, seconds: seeded } = await seed();
  const rows: Row[] = [];
  // As deployed, then with the server's old generation capped at HEAP_MB: an export that kept its rows would die there.
  for (const heap of [null, HEAP_MB]) {
    const { url, child } = await startServer(databaseUrl, 3207, heap ? { NODE_OPTIONS: `--max-old-space-size=${heap}` } : {});
    try {
      const r = await exportYear(url, child.pid!, key);
      const label = heap ? `, heap capped at ${heap} MB` : '';
      rows.push(
        {
          name: `export of ${ENTRIES.toLocaleString('en')} entries${label}${heap ? '' : ` (seeded in ${seeded.toFixed(0)} s)`}`,
          value: `${r.seconds.toFixed(1)} s (${Math.round(r.entries / r.seconds).toLocaleString('en')} rows/s)`,
          target: '< 60 s',
          ok: r.seconds < 60,
        },
        {
          name: `server peak RSS while streaming (before)${label}`,
          value: `${mb(r.peak)} (${mb(r.before)})`,
          target: 'growth < 150 MB',
          ok: r.peak - r.before < 150 * 1024 * 1024,
        },
        {
          name: `every entry once, opening + entries = closing${label}`,
          value: `${r.entries.toLocaleString('en')} rows, ${r.adds ? 'adds up' : 'DOES NOT ADD UP'}`,
          target: 'all, exact',
          ok: r.entries === ENTRIES && r.adds,
        },
      );
    } finally {
      await stopServer(child);
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBuild();
  await withBenchDatabase(async (databaseUrl) => {
    printTable('Statement export', await benchStatement(databaseUrl));
  });
}
