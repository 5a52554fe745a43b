/**
 * GET /api/health (trivial, no auth, no database) against GET /v1/tenants/me
 * (API key lookup + rate-limit window + last-used in one round trip) and
 * POST /v1/invoices (with the worker running beside, as in production, to keep
 * the deposit-address pool filled), 50 connections each, production build,
 * real PostgreSQL, loopback.
 * Targets (issue 50): tenants/me >= 90% of trivial req/s with p99 < 100 ms; invoices >= 60%; no errors. Each
 * figure's tail sources (server GC, event-loop delay, lock waits, a full pool) are measured around its load.
 */
import { sql } from 'drizzle-orm';
import { ensureBuild, printTable, startServer, startWorker, stopServer, withBenchDatabase } from './lib/harness';
import { load, type LoadResult } from './lib/load';
import { BENCH_METRICS_TOKEN, describeTail, withTailSources, type TailContext, type TailSources } from './lib/tail-sources';

export async function benchApi(ctx: TailContext, key: string) {
  const baseUrl = ctx.baseUrl;
  const trivial = await withTailSources(ctx, () => load({ url: `${baseUrl}/api/health` }));
  const authed = await withTailSources(ctx, () => load({ url: `${baseUrl}/v1/tenants/me`, headers: { authorization: `Bearer ${key}` } }));
  const invoices = await withTailSources(ctx, () =>
    load({
      url: `${baseUrl}/v1/invoices`,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '25.00', externalId: 'bench' }),
    }),
  );
  return { trivial, authed, invoices };
}

type Measured = { result: LoadResult; tail: TailSources };

export function apiRows(
  { result: trivial, tail: trivialTail }: Measured,
  { result: authed, tail: authedTail }: Measured,
  measuredInvoices?: Measured,
) {
  const ratio = authed.rps / trivial.rps;
  const invoices = measuredInvoices?.result;
  const inv = invoices
    ? [
        { name: 'POST /v1/invoices req/s', value: invoices.rps.toFixed(0), target: '', ok: null },
        { name: 'POST /v1/invoices p50 / p99 ms', value: `${invoices.p50} / ${invoices.p99}`, target: '', ok: null },
        { name: 'POST /v1/invoices tail sources', value: describeTail(measuredInvoices.tail), target: '', ok: null },
        {
          name: 'POST /v1/invoices / trivial',
          value: `${((invoices.rps / trivial.rps) * 100).toFixed(0)}%`,
          target: '>= 60%',
          ok: invoices.rps / trivial.rps >= 0.6,
        },
        {
          name: 'POST /v1/invoices errors + non-2xx',
          value: String(invoices.errors + invoices.non2xx),
          target: '0',
          ok: invoices.errors + invoices.non2xx === 0,
        },
      ]
    : [];
  return [
    { name: 'trivial GET /api/health req/s', value: trivial.rps.toFixed(0), target: 'baseline', ok: null },
    { name: 'trivial p50 / p99 ms', value: `${trivial.p50} / ${trivial.p99}`, target: '', ok: null },
    { name: 'trivial tail sources', value: describeTail(trivialTail), target: '', ok: null },
    { name: 'GET /v1/tenants/me req/s', value: authed.rps.toFixed(0), target: '', ok: null },
    { name: 'GET /v1/tenants/me p50 / p99 ms', value: `${authed.p50} / ${authed.p99}`, target: 'p99 < 100', ok: authed.p99 < 100 },
    { name: 'GET /v1/tenants/me tail sources', value: describeTail(authedTail), target: '', ok: null },
    { name: 'authenticated / trivial', value: `${(ratio * 100).toFixed(0)}%`, target: '>= 90%', ok: ratio >= 0.9 },
    {
      name: 'errors + non-2xx',
      value: String(trivial.errors + trivial.non2xx + authed.errors + authed.non2xx),
      target: '0',
      ok: trivial.errors + trivial.non2xx + authed.errors + authed.non2xx === 0,
    },
    ...inv,
  ];
}

/** Waits until the worker has pre-derived `n` deposit addresses. */
async function waitForPool(n: number) {
  const { getDb, rowsOf } = await import('@/lib/db');
  const db = await getDb();
  for (let i = 0; i < 240; i++) {
    const [r] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from deposit_address_pool`));
    if (Number(r!.n) >= n) return;
    await new Promise((res) => setTimeout(res, 500));
  }
}

/** A key whose limit the benchmark cannot reach: the limit check still runs on every request. */
export async function benchKey() {
  const { getDb } = await import('@/lib/db');
  const { createTestTenant } = await import('@/lib/testing/fixtures');
  const t = await createTestTenant({ name: 'Bench' });
  await t.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${t.tenant.id}`);
  return { ...t, db: await getDb() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBuild();
  await withBenchDatabase(async (databaseUrl) => {
    const t = await benchKey();
    const { env } = await import('@/lib/env');
    const { url, child } = await startServer(databaseUrl, 3201, { METRICS_TOKEN: BENCH_METRICS_TOKEN });
    const worker = startWorker(databaseUrl);
    try {
      await waitForPool(5000);
      const ctx = { baseUrl: url, metricsToken: BENCH_METRICS_TOKEN, databaseUrl, poolMax: env().DB_POOL_MAX };
      const { trivial, authed, invoices } = await benchApi(ctx, t.test);
      printTable('API overhead (50 connections, 10 s each)', apiRows(trivial, authed, invoices));
    } finally {
      await stopServer(worker);
      await stopServer(child);
    }
  });
  process.exit(0);
}
