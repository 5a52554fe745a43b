import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetryLater } from '@/lib/api/errors';
import { rowsOf } from '@/lib/db';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';

type TestTenant = Awaited<ReturnType<typeof createTestTenant>>;
import { RefusalMemo } from './refusal-memo';

/** Requests the key's rate-limit windows have counted: every request that reached the authentication statement. */
async function counted(t: TestTenant, keyId: string): Promise<number> {
  const rows = rowsOf<{ n: string }>(
    await t.db.execute(sql`select coalesce(sum(count), 0)::text as n from rate_limit_windows where key_id = ${keyId}`),
  );
  return Number(rows[0]!.n);
}

async function insideOneMinute(spareSeconds: number) {
  const s = new Date().getUTCSeconds();
  if (s > 60 - spareSeconds) await new Promise((r) => setTimeout(r, (61 - s) * 1000));
}

describe('refused keys are answered from memory', () => {
  it("a key past its rate limit: repeats get the spec's 429 without a database statement; the tenant's other key is untouched", async () => {
    const t = await createTestTenant();
    const flooder = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 3 });
    const other = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 3 });
    await insideOneMinute(8);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call('GET', '/v1/tenants/me', { key: flooder.key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await counted(t, flooder.id)).toBe(4);

    // 200 more, on several operations: all refused with the spec's headers, none reached the database.
    for (let i = 0; i < 200; i++) {
      const res = await call(i % 2 ? 'GET' : 'POST', '/v1/invoices', { key: flooder.key, body: i % 2 ? undefined : { amount: '1' } });
      expect(res.status).toBe(429);
      if (i === 199) {
        expect(res.headers.get('x-ratelimit-limit')).toBe('3');
        expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(Number(res.headers.get('x-ratelimit-reset')) % 60).toBe(0);
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(res.body).toMatchObject({ statusCode: 429, code: 'rate_limited', message: `Rate limit exceeded. Retry in ${retryAfter} seconds.` });
      }
    }
    expect(await counted(t, flooder.id)).toBe(4);
    expect((await call('GET', '/v1/tenants/me', { key: other.key })).status).toBe(200);
  });

  it('a bad key never enters the memo, and a refusal never lets a request through', async () => {
    const t = await createTestTenant();
    const res = await call('GET', '/v1/tenants/me', { key: 'gw_test_' + 'x'.repeat(43) });
    expect(res.status).toBe(401);
    // A revoked key that was refused stays refused (429, then 401 once the refusal has run out): never a 200.
    const k = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 1 });
    await insideOneMinute(5);
    expect((await call('GET', '/v1/tenants/me', { key: k.key })).status).toBe(200);
    expect((await call('GET', '/v1/tenants/me', { key: k.key })).status).toBe(429);
    await t.db.execute(sql`update api_keys set status = 'REVOKED' where id = ${k.id}`);
    expect((await call('GET', '/v1/tenants/me', { key: k.key })).status).toBe(429);
  });
});

describe('a tenant past its exchange share (against the simulator)', () => {
  let ex: Awaited<ReturnType<typeof startTestExchange>>;
  beforeAll(async () => {
    ex = await startTestExchange();
  });
  afterAll(() => ex?.stop());

  it("repeated quotes are refused from memory until Retry-After; the key's other operations still run", async () => {
    const a = await createTestTenant();
    const key = await createTestKey(a.db, { tenantId: a.tenant.id, mode: 'test', scopes: ['withdrawals:read'], rateLimitRpm: 100_000 });
    const quote = (amount: number) =>
      call('POST', '/v1/withdrawals/exchange/price', {
        key: key.key,
        body: { type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount },
      });
    await insideOneMinute(20);
    let first;
    for (let i = 0; i < 300 && !first; i++) {
      const r = await quote(100 + i);
      if (r.status === 429) first = r;
    }
    expect(first?.body.code).toBe('rate_limited');
    const before = await counted(a, key.id);
    const repeats = [];
    for (let i = 0; i < 200; i++) repeats.push(await quote(500 + i));
    expect(repeats.every((r) => r.status === 429 && r.body.code === 'rate_limited')).toBe(true);
    expect(Number(repeats.at(-1)!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The spec's rate-limit headers on every 429, from the key's window at the refusal.
    expect(repeats.at(-1)!.headers.get('x-ratelimit-limit')).toBe('100000');
    expect(await counted(a, key.id)).toBe(before);
    // Only this operation is held: the balance is still read through the normal path.
    const balance = await call('GET', '/v1/withdrawals/balance', { key: key.key });
    expect(balance.status, balance.text).toBe(200);
    expect(await counted(a, key.id)).toBe(before + 1);
  });
});

describe('RefusalMemo (clock)', () => {
  it('counts Retry-After down, forgets at the deadline, and keeps a held operation to itself', () => {
    let now = 1_000_000_000; // ms; rate-limit resets are epoch seconds
    const memo = new RefusalMemo(() => now);
    memo.remember('k1', 'getPrice', new RetryLater('rate_limited', (s) => `wait ${s}`, 30), {
      rateLimit: { limit: 60, remaining: 12, reset: 1_000_020 },
    });
    expect(memo.check('k1', 'getBalance')).toBeNull();
    expect(memo.check('k2', 'getPrice')).toBeNull();
    now += 10_500;
    const held = memo.check('k1', 'getPrice')!;
    expect(held.refusal.headers).toEqual({ 'Retry-After': '20' });
    expect(held.refusal.message).toBe('wait 20');
    expect(held.rateLimit).toEqual({ limit: 60, remaining: 12, reset: 1_000_020 });
    // Past the key's window end: a fresh window (repeats answered here were never counted).
    now += 10_000;
    expect(memo.check('k1', 'getPrice')!.rateLimit).toEqual({ limit: 60, remaining: 60, reset: 1_000_080 });
    now += 9_500;
    expect(memo.check('k1', 'getPrice')).toBeNull();
    // A whole-key refusal (the API rate limit) holds every operation.
    memo.remember('k3', 'getPrice', new RetryLater('rate_limited', (s) => `wait ${s}`, 5), { wholeKey: true });
    expect(memo.check('k3', 'listInvoices')).not.toBeNull();
  });
});
