/**
 * GET /api/health (trivial, no auth, no database) against GET /v1/tenants/me
 * (API key lookup + rate-limit window + last-used in one round trip) and
 * POST /v1/invoices (with the worker running beside, as in production, to keep
 * the deposit-address pool filled), 50 connections each, production build,
 * real PostgreSQL, loopback.
 * Targets: tenants/me >= 60% of trivial req/s with p99 < 100 ms; invoices >= 40%; no errors.
 */
import { sql } from 'drizzle-orm';
import { ensureBuild, printTable, startServer, startWorker, stopServer, withBenchDatabase } from './lib/harness';
import { load, type LoadResult } from './lib/load';

export async function benchApi(baseUrl: string, key: string) {
  const trivial = await load({ url: `${baseUrl}/api/health` });
  const authed = await load({ url: `${baseUrl}/v1/tenants/me`, headers: { authorization: `Bearer ${key}` } });
  const invoices = await load({
    url: `${baseUrl}/v1/invoices`,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount: '25.00', externalId: 'bench' }),
  });
  return { trivial, authed, invoices };
}

export function apiRows(trivial: LoadResult, authed: LoadResult, invoices?: LoadResult) {
  const ratio = authed.rps / trivial.rps;
  const inv = invoices
    ? [
        { name: 'POST /v1/invoices req/s', value: invoices.rps.toFixed(0), target: '>= 40% of trivial', ok: invoices.rps / trivial.rps >= 0.4 },
        { name: 'POST /v1/invoices p50 / p99 ms', value: `${invoices.p50} / ${invoices.p99}`, target: '', ok: null },
        {
          name: 'POST /v1/invoices / trivial',
          value: `${((invoices.rps / trivial.rps) * 100).toFixed(0)}%`,
          target: '>= 40%',
          ok: invoices.rps / trivial.rps >= 0.4,
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
    { name: 'GET /v1/tenants/me req/s', value: authed.rps.toFixed(0), target: '>= 60% of trivial', ok: ratio >= 0.6 },
    { name: 'GET /v1/tenants/me p50 / p99 ms', value: `${authed.p50} / ${authed.p99}`, target: 'p99 < 100', ok: authed.p99 < 100 },
    { name: 'authenticated / trivial', value: `${(ratio * 100).toFixed(0)}%`, target: '>= 60%', ok: ratio >= 0.6 },
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
    const { url, child } = await startServer(databaseUrl, 3201);
    const worker = startWorker(databaseUrl);
    try {
      await waitForPool(5000);
      const { trivial, authed, invoices } = await benchApi(url, t.test);
      printTable('API overhead (50 connections, 10 s each)', apiRows(trivial, authed, invoices));
    } finally {
      await stopServer(worker);
      await stopServer(child);
    }
  });
  process.exit(0);
}
