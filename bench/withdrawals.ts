/**
 * POST /v1/withdrawals from 50 connections: all on one tenant (every request
 * locks the same balance row) and spread over 100 tenants, against the trivial
 * route in the same run. Afterwards every balance must equal its ledger sum,
 * be >= 0 and equal the credit minus what the withdrawals took (no overdraft).
 * Targets (issue 50): one tenant >= 50 % of the trivial route's req/s, 100 tenants >= 60 %. Each figure's tail
 * sources (server GC, event-loop delay, lock waits, a full pool) are measured around its load.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ensureBuild, printTable, startServer, stopServer, withBenchDatabase, type Row } from './lib/harness';
import { load } from './lib/load';
import { BENCH_METRICS_TOKEN, describeTail, withTailSources, type TailContext } from './lib/tail-sources';

const BODY = JSON.stringify({ amount: '0.01', destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' });

async function fundedTenants(n: number, balance: string) {
  const out: { id: string; key: string; db: Db }[] = [];
  for (let i = 0; i < n; i++) {
    const t = await createTestTenant({ name: `Bench wd ${i}` });
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: balance,
        kind: 'test_credit',
        referenceType: 'bench',
        referenceId: `bench-${t.tenant.id}`,
        currency: 'USDT',
      }),
    );
    await t.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${t.tenant.id}`);
    out.push({ id: t.tenant.id, key: t.test, db: t.db });
  }
  return out;
}

/** Balance = ledger sum >= 0 and = credit − Σ(amount + fee) for every tenant. */
export async function checkNoOverdraft(db: Db, tenantIds: string[], credit: string) {
  const rows = rowsOf<{ tenant_id: string; available: string; ledger: string; taken: string }>(
    await db.execute(sql`
      select b.tenant_id, b.available::text,
             (select coalesce(sum(amount), 0) from ledger_entries l where l.tenant_id = b.tenant_id and l.mode = 'test')::text as ledger,
             (select coalesce(sum(amount + fee_amount), 0) from withdrawals w where w.tenant_id = b.tenant_id and w.mode = 'test')::text as taken
        from balances b where b.mode = 'test' and b.tenant_id = any(${`{${tenantIds.join(',')}}`}::text[])`),
  );
  const bad = rows.filter((r) => {
    const available = new Decimal(r.available);
    return !available.eq(r.ledger) || available.lt(0) || !new Decimal(credit).minus(r.taken).eq(available);
  });
  return bad.length + (tenantIds.length - rows.length);
}

export async function benchWithdrawals(ctx: TailContext, db: Db): Promise<Row[]> {
  const baseUrl = ctx.baseUrl;
  const { result: trivial, tail: trivialTail } = await withTailSources(ctx, () => load({ url: `${baseUrl}/api/health` }));
  const [one] = await fundedTenants(1, '1000000');
  const { result: single, tail: singleTail } = await withTailSources(ctx, () =>
    load({
      url: `${baseUrl}/v1/withdrawals`,
      method: 'POST',
      body: BODY,
      headers: { authorization: `Bearer ${one!.key}`, 'content-type': 'application/json' },
    }),
  );
  const many = await fundedTenants(100, '1000000');
  let i = 0;
  const { result: spread, tail: spreadTail } = await withTailSources(ctx, () =>
    load({
      url: `${baseUrl}/v1/withdrawals`,
      method: 'POST',
      body: BODY,
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${many[i++ % many.length]!.key}` } }),
    }),
  );
  const overdrafts = await checkNoOverdraft(db, [one!.id, ...many.map((t) => t.id)], '1000000');
  const ratio = spread.rps / trivial.rps;
  const singleRatio = single.rps / trivial.rps;
  return [
    { name: 'trivial GET /api/health req/s', value: trivial.rps.toFixed(0), target: 'baseline', ok: null },
    { name: 'trivial p50 / p99 ms', value: `${trivial.p50} / ${trivial.p99}`, target: '', ok: null },
    { name: 'trivial tail sources', value: describeTail(trivialTail), target: '', ok: null },
    { name: 'POST /v1/withdrawals, 1 tenant req/s', value: single.rps.toFixed(0), target: '', ok: null },
    { name: '1 tenant / trivial', value: `${(singleRatio * 100).toFixed(0)}%`, target: '>= 50%', ok: singleRatio >= 0.5 },
    { name: 'POST /v1/withdrawals, 1 tenant p50 / p99 ms', value: `${single.p50} / ${single.p99}`, target: '', ok: null },
    { name: '1 tenant tail sources', value: describeTail(singleTail), target: '', ok: null },
    { name: 'POST /v1/withdrawals, 100 tenants req/s', value: spread.rps.toFixed(0), target: '', ok: null },
    { name: '100 tenants / trivial', value: `${(ratio * 100).toFixed(0)}%`, target: '>= 60%', ok: ratio >= 0.6 },
    { name: 'POST /v1/withdrawals, 100 tenants p50 / p99 ms', value: `${spread.p50} / ${spread.p99}`, target: '', ok: null },
    { name: '100 tenants tail sources', value: describeTail(spreadTail), target: '', ok: null },
    {
      name: 'withdrawal errors + non-2xx',
      value: String(single.errors + single.non2xx + spread.errors + spread.non2xx),
      target: '0',
      ok: single.errors + single.non2xx + spread.errors + spread.non2xx === 0,
    },
    { name: 'overdrafts / ledger mismatches', value: String(overdrafts), target: '0', ok: overdrafts === 0 },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBuild();
  await withBenchDatabase(async (databaseUrl) => {
    const { getDb } = await import('@/lib/db');
    const { env } = await import('@/lib/env');
    const { url, child } = await startServer(databaseUrl, 3202, { METRICS_TOKEN: BENCH_METRICS_TOKEN });
    try {
      const ctx = { baseUrl: url, metricsToken: BENCH_METRICS_TOKEN, databaseUrl, poolMax: env().DB_POOL_MAX };
      printTable('Withdrawals (50 connections, 10 s each)', await benchWithdrawals(ctx, await getDb()));
    } finally {
      await stopServer(child);
    }
  });
  process.exit(0);
}
