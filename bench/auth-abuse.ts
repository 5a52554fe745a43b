/**
 * Authentication abuse: one client (one address, as the balancer reports it
 * in X-Forwarded-For) floods GET /v1/tenants/me with bad keys (unknown
 * well-formed keys, malformed keys, a revoked key) while good keys of other
 * tenants, from their own addresses, make ordinary requests. Prints the good
 * keys' throughput and p50/p99 alone and under the flood. Production build,
 * real PostgreSQL, loopback.
 * Targets: every bad request a 401 or, once its address is blocked, a 429;
 * every good request a 200; good p99 under the flood < 100 ms (the API's p99
 * target) and at most 3x its p99 alone.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ensureBuild, printTable, startServer, stopServer, withBenchDatabase, type Row } from './lib/harness';
import { load, type LoadResult } from './lib/load';

const GOOD_CONNECTIONS = 10;
const FLOOD_CONNECTIONS = 40;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

async function goodKeys(n: number) {
  const { createTestTenant, createTestKey } = await import('@/lib/testing/fixtures');
  const keys: string[] = [];
  let revoked = '';
  for (let i = 0; i < n; i++) {
    const t = await createTestTenant({ name: `Good ${i}` });
    await t.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${t.tenant.id}`);
    keys.push(t.test);
    if (!revoked) revoked = (await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], state: 'revoked' })).key;
  }
  return { keys, revoked };
}

function rotating(values: () => string, address: () => string) {
  return (req: any) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${values()}`, 'x-forwarded-for': address() } });
}

export async function benchAuthAbuse(baseUrl: string, keys: string[], revoked: string) {
  let g = 0;
  const good = () =>
    load({
      url: `${baseUrl}/v1/tenants/me`,
      connections: GOOD_CONNECTIONS,
      seconds: SECONDS,
      setupRequest: rotating(
        () => keys[g % keys.length]!,
        () => `198.51.100.${g++ % keys.length}`,
      ),
    });
  let b = 0;
  const badKey = () => {
    const i = b++ % 4;
    if (i === 0) return `gw_test_${randomBytes(32).toString('base64url')}`; // unknown, well-formed: costs a lookup
    if (i === 1) return `gw_live_${randomBytes(32).toString('base64url')}`;
    if (i === 2) return revoked;
    return `not-a-key-${b}`; // malformed: refused before the database
  };
  const flood = () =>
    load({
      url: `${baseUrl}/v1/tenants/me`,
      connections: FLOOD_CONNECTIONS,
      seconds: SECONDS + 1,
      setupRequest: rotating(badKey, () => '203.0.113.7'),
    });

  const alone = await good();
  const [under, bad] = await Promise.all([good(), flood()]);
  return { alone, under, bad };
}

function notStatus(r: LoadResult, ...statuses: string[]) {
  return r.errors + Object.entries(r.statusCodes).reduce((n, [k, c]) => n + (statuses.includes(k) ? 0 : c), 0);
}

export function authAbuseRows(alone: LoadResult, under: LoadResult, bad: LoadResult): Row[] {
  const goodOk = alone.errors + alone.non2xx + under.errors + under.non2xx === 0;
  return [
    { name: `good keys alone (${GOOD_CONNECTIONS} conns) req/s`, value: alone.rps.toFixed(0), target: 'baseline', ok: null },
    { name: 'good keys alone p50 / p99 ms', value: `${alone.p50} / ${alone.p99}`, target: '', ok: null },
    { name: `bad-key flood (${FLOOD_CONNECTIONS} conns) req/s`, value: bad.rps.toFixed(0), target: '', ok: null },
    {
      name: 'bad-key flood answers 401 (looked up) / 429 (blocked)',
      value: `${bad.statusCodes['401'] ?? 0} / ${bad.statusCodes['429'] ?? 0}`,
      target: '',
      ok: null,
    },
    {
      name: 'bad-key flood answers other than 401/429',
      value: String(notStatus(bad, '401', '429')),
      target: '0',
      ok: notStatus(bad, '401', '429') === 0,
    },
    { name: 'good keys under flood req/s', value: under.rps.toFixed(0), target: '', ok: null },
    {
      name: 'good keys under flood p50 / p99 ms',
      value: `${under.p50} / ${under.p99}`,
      target: 'p99 < 100 and <= 3x alone',
      ok: under.p99 < 100 && under.p99 <= Math.max(3 * alone.p99, 10),
    },
    {
      name: 'good-key answers other than 200',
      value: String(notStatus(alone, '200') + notStatus(under, '200')),
      target: '0',
      ok: goodOk && notStatus(alone, '200') + notStatus(under, '200') === 0,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureBuild();
  await withBenchDatabase(async (databaseUrl) => {
    const { keys, revoked } = await goodKeys(5);
    const { url, child } = await startServer(databaseUrl, 3211);
    try {
      const { alone, under, bad } = await benchAuthAbuse(url, keys, revoked);
      printTable(`Authentication abuse (${SECONDS} s per phase)`, authAbuseRows(alone, under, bad));
    } finally {
      await stopServer(child);
    }
  });
  process.exit(0);
}
