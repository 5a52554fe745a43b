/**
 * GET /api/health (trivial, no auth, no database) against GET /v1/tenants/me
 * (API key lookup + rate-limit window + last-used in one round trip), 50
 * connections each, production build, real PostgreSQL, loopback.
 * Targets: authenticated >= 60% of trivial req/s, p99 < 100 ms, no errors.
 */
import { sql } from 'drizzle-orm';
import { ensureBuild, printTable, startServer, stopServer, withBenchDatabase } from './lib/harness';
import { load, type LoadResult } from './lib/load';

export async function benchApi(baseUrl: string, key: string) {
  const trivial = await load({ url: `${baseUrl}/api/health` });
  const authed = await load({ url: `${baseUrl}/v1/tenants/me`, headers: { authorization: `Bearer ${key}` } });
  return { trivial, authed };
}

export function apiRows(trivial: LoadResult, authed: LoadResult) {
  const ratio = authed.rps / trivial.rps;
  return [
    { name: 'trivial GET /api/health req/s', value: trivial.rps.toFixed(0), target: 'baseline', ok: null },
    { name: 'trivial p50 / p99 ms', value: `${trivial.p50} / ${trivial.p99}`, target: '', ok: null },
    { name: 'GET /v1/tenants/me req/s', value: authed.rps.toFixed(0), target: '>= 60% of trivial', ok: ratio >= 0.6 },
    { name: 'GET /v1/tenants/me p50 / p99 ms', value: `${authed.p50} / ${authed.p99}`, target: 'p99 < 100', ok: authed.p99 < 100 },
    { name: 'authenticated / trivial', value: `${(ratio * 100).toFixed(0)}%`, target: '>= 60%', ok: ratio >= 0.6 },
    { name: 'errors + non-2xx', value: String(trivial.errors + trivial.non2xx + authed.errors + authed.non2xx), target: '0', ok: trivial.errors + trivial.non2xx + authed.errors + authed.non2xx === 0 },
  ];
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
    try {
      const { trivial, authed } = await benchApi(url, t.test);
      printTable('API overhead (50 connections, 10 s each)', apiRows(trivial, authed));
    } finally {
      await stopServer(child);
    }
  });
  process.exit(0);
}
