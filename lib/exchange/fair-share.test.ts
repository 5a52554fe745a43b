import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';
import { createExchangeClient } from './client';
import { ExchangeHttpError } from './errors';
import { MIN_TENANT_SHARE, roomFor, tenantShareNow, type Spend } from './fair-share';

const limits = { limit: 250, tenantShare: 150, systemReserve: 25 };
const spend = (tenantId: string | null, weight: number, until = 1): Spend => ({ tenantId, weight, until });

describe('fair shares (rules)', () => {
  it('a tenant alone gets its share; with others spending, an equal part of the pool, never less than one withdrawal', () => {
    expect(tenantShareNow([], 'a', limits)).toBe(150);
    expect(tenantShareNow([spend('b', 1)], 'a', limits)).toBe(112);
    const crowd = Array.from({ length: 9 }, (_, i) => spend(`t${i}`, 1));
    expect(tenantShareNow(crowd, 'a', limits)).toBe(MIN_TENANT_SHARE);
  });

  it('one tenant at its share leaves room for another tenant’s create and for the tracker’s reserve', () => {
    const window = [spend('a', 150), spend(null, 0)];
    expect(roomFor(window, { tenantId: 'a' }, limits)).toBe(0);
    expect(roomFor(window, { tenantId: 'b' }, limits)).toBeGreaterThanOrEqual(51);
    // The tracker's ceiling (150) is filled by tenant a, but its reserve still lets it poll.
    expect(roomFor(window, { tenantId: null, ceiling: 150 }, limits)).toBe(25);
    // Tenants together never take the reserve.
    expect(roomFor([spend('a', 150), spend('b', 75)], { tenantId: 'c' }, limits)).toBe(0);
  });
});

describe('exchange weight budget across tenants (against the simulator)', () => {
  let ex: Awaited<ReturnType<typeof startTestExchange>>;
  beforeAll(async () => {
    // The real limit and window: the flood below has to stay inside one minute.
    ex = await startTestExchange();
  });
  afterAll(() => ex?.stop());

  it('a tenant flooding quotes with a read-only key gets 429 rate_limited past its share; another tenant still quotes and creates orders at once', async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const aKey = await createTestKey(a.db, { tenantId: a.tenant.id, mode: 'test', scopes: ['withdrawals:read'], rateLimitRpm: 100_000 });
    const quote = (key: string, amount: number) =>
      call('POST', '/v1/withdrawals/exchange/price', { key, body: { type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount } });

    // Distinct amounts: the quote cache cannot absorb the flood.
    const flood = [];
    for (let i = 0; i < 260; i++) flood.push(await quote(aKey.key, 100 + i));
    const refused = flood.filter((r) => r.status === 429);
    expect(flood.filter((r) => r.status === 200).length).toBeLessThanOrEqual(150);
    expect(refused.length).toBeGreaterThan(100);
    expect(refused[0]!.body.code).toBe('rate_limited');
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    // A refusal to come back later is not an answer to remember: the same Idempotency-Key runs again, with its Retry-After.
    const body = { type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount: 999 };
    const headers = { 'idempotency-key': 'refused-1' };
    const once = await call('POST', '/v1/withdrawals/exchange/price', { key: aKey.key, body, headers });
    const again = await call('POST', '/v1/withdrawals/exchange/price', { key: aKey.key, body, headers });
    expect([once.status, again.status]).toEqual([429, 429]);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);

    const bQuote = await quote(b.test, 77);
    expect(bQuote.status, bQuote.text).toBe(200);
    const order = await call('POST', '/v1/withdrawals/exchange/order', {
      key: b.test,
      body: {
        type: 'fixed',
        fromCcy: 'USDTBSC',
        toCcy: 'BTC',
        direction: 'from',
        amount: 77,
        toAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      },
    });
    expect(order.status, order.text).toBe(200);
    expect(order.body.data.status).toBe('NEW');
    // Our budget kept the exchange's limit: it never had to answer 429.
    expect(ex.sim.limiter.stats().rejected).toBe(0);
  });
});

describe('quote cache', () => {
  let ex: Awaited<ReturnType<typeof startTestExchange>>;
  beforeAll(async () => {
    ex = await startTestExchange();
  });
  afterAll(() => ex?.stop());

  const pair = { type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'ETH', direction: 'from', amount: '123.45' } as const;

  it('identical quotes within the TTL reach the exchange once; a failed quote is not cached', async () => {
    const db = await getDb();
    let failNext = true;
    const flaky: typeof fetch = async (url, init) => {
      if (failNext && String(url).endsWith('/price')) {
        failNext = false;
        return new Response('down', { status: 500 });
      }
      return fetch(url, init);
    };
    const client = createExchangeClient(db, { ...ex.config, quoteCacheMs: 60_000 }, { fetch: flaky, retries: 0, tenantId: 'ten_cache' });
    await expect(client.price(pair)).rejects.toBeInstanceOf(ExchangeHttpError);
    const before = ex.sim.limiter.stats().accepted;
    const first = await client.price(pair);
    for (let i = 0; i < 10; i++) expect(await client.price(pair)).toEqual(first);
    expect(ex.sim.limiter.stats().accepted - before).toBe(1);
    // A different request is a different quote.
    await client.price({ ...pair, amount: '123.46' });
    expect(ex.sim.limiter.stats().accepted - before).toBe(2);
  });
});
