/**
 * Exchange quote flood: tenant A, with a key holding only withdrawals:read
 * (and an API rate limit raised out of the way), loops price quotes with
 * distinct amounts (the quote cache cannot absorb them) against the local
 * exchange with the real limit (250 weight / 60 s). Victim: tenant B's quotes
 * and one manual order (a 50-weight create), timed alone and under the flood.
 * In-process: the /v1 handlers are called directly (lib/testing/app), the
 * exchange simulator runs in the same process; no port is fixed.
 */
import { sql } from 'drizzle-orm';
import { withBenchDatabase } from '../lib/harness';
import type { AbuseRow } from './types';
import { attacker, leadIn, p99, summary, victim } from './victim';

const QUOTES = Number(process.env.BENCH_ABUSE_QUOTES ?? 25);
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

export default async function run(): Promise<AbuseRow> {
  return withBenchDatabase(async () => {
    const { call } = await import('@/lib/testing/app');
    const { createTestKey, createTestTenant } = await import('@/lib/testing/fixtures');
    const { startTestExchange } = await import('@/lib/testing/exchange-sim');
    const ex = await startTestExchange();
    try {
      const a = await createTestTenant({ name: 'Flooder' });
      const b = await createTestTenant({ name: 'Victim' });
      await b.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${b.tenant.id}`);
      const aKey = (await createTestKey(a.db, { tenantId: a.tenant.id, mode: 'test', scopes: ['withdrawals:read'], rateLimitRpm: 100_000_000 })).key;
      const pair = (amount: number) => ({ type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount });
      const quote = (key: string, amount: number) => call('POST', '/v1/withdrawals/exchange/price', { key, body: pair(amount) });
      // The victim's p99 is over its quotes; under the flood it also places one manual order (a create, 50 weight),
      // which must go through. Its whole use (about 100 weight) stays within a fair share while two tenants spend.
      const victimOp = (offset: number) => async (i: number) => {
        const res = await quote(b.test, 1000 + offset + i);
        return res.status === 200 ? null : `${res.status} ${res.body?.code}`;
      };
      await quote(b.test, 999); // warm-up: routes compiled, currency list cached
      const alone = await victim(QUOTES, 100, victimOp(0));
      const flood = attacker(4, async (i) => String((await quote(aKey, 100 + (i % 100_000) / 100)).status));
      const first = await leadIn(() => quote(b.test, 998));
      const under = await victim(QUOTES, 100, victimOp(500));
      const t0 = performance.now();
      const order = await call('POST', '/v1/withdrawals/exchange/order', { key: b.test, body: { ...pair(60), toAddress: BTC } });
      const orderMs = Math.round(performance.now() - t0);
      const floodOutcomes = await flood.stop();
      if (order.status !== 200) under.refused++;
      return {
        scenario: 'exchange-quote-flood',
        victimAloneP99Ms: p99(alone.latencies),
        victimAttackP99Ms: p99(under.latencies),
        victimRequests: alone.latencies.length + under.latencies.length + 1,
        victimRefused: alone.refused + under.refused,
        note: `first quote at the flood's start ${first} ms; victim's order under the flood: ${order.status} in ${orderMs} ms; flood answers: ${summary(floodOutcomes)}; exchange 429s: ${ex.sim.limiter.stats().rejected}${under.firstRefusal ? `; victim refused: ${under.firstRefusal}` : ''}`,
      };
    } finally {
      await ex.stop();
    }
  });
}
