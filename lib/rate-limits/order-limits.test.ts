import { describe, expect, it } from 'vitest';
import type { Network } from '@/lib/chain/network';
import { ApiError } from '@/lib/api/errors';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { createOrder } from '@/lib/storefront/create-order';
import type { StoreOrderLimits } from './order-limits';

let net: Network & { depositMnemonic: string };
withTestChain(async (c) => {
  net = { ...c.network('test'), depositMnemonic: c.network('test').depositMnemonic! };
});

let seq = 0;
async function shop(price = '12.50') {
  const t = await createTestTenant();
  const product = await call('POST', '/v1/products', { key: t.test, body: { name: 'Thing', price } });
  expect(product.status, product.text).toBe(201);
  return { ...t, owner: { tenantId: t.tenant.id, mode: 'test' as const }, productId: product.body.id as string };
}
const body = (productId: string, quantity = 1) => ({ items: [{ productId, quantity }], customerEmail: 'buyer@example.com' });
const wide: StoreOrderLimits = { perAddressPerMinute: 1000, perStorePerMinute: 1000, maxOpenOrders: 1000 };
/** The error code a placement ended with, or 'ok'. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => {
      if (e instanceof ApiError) return e.code;
      throw e;
    },
  );

describe('store order limits', () => {
  it('an order total above 1,000,000,000 USDT is a 400 invalid_amount, not a 500 (/v1/orders)', async () => {
    const s = await shop('1000000000');
    const res = await call('POST', '/v1/orders', { key: s.test, body: body(s.productId, 2) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('invalid_amount');
    expect(res.body.message).toContain('1000000000 USDT');
    expect((await call('POST', '/v1/orders', { key: s.test, body: body(s.productId, 1) })).status).toBe(201);
  });

  it('one client address is refused (429 rate_limited, Retry-After) past its per-minute limit; other buyers of the store are not', async () => {
    const s = await shop();
    const addr = `198.51.100.${++seq}`;
    const limits = { ...wide, perAddressPerMinute: 3 };
    const results: string[] = [];
    // Eight in a row: even across a minute boundary at most 3 + 3 go through.
    for (let i = 0; i < 8; i++) results.push(await outcome(createOrder(s.db, s.owner, net, body(s.productId), { clientAddress: addr, limits })));
    expect(results.filter((r) => r === 'ok').length).toBeGreaterThanOrEqual(3);
    expect(results.filter((r) => r === 'rate_limited').length).toBeGreaterThanOrEqual(2);
    const err = await createOrder(s.db, s.owner, net, body(s.productId), { clientAddress: addr, limits }).catch((e) => e);
    expect(err.code).toBe('rate_limited');
    expect(Number(err.headers['Retry-After'])).toBeGreaterThan(0);
    expect(await outcome(createOrder(s.db, s.owner, net, body(s.productId), { clientAddress: `203.0.113.${seq}`, limits }))).toBe('ok');
  });

  it('a store is refused past its per-minute limit from any addresses; another store is not', async () => {
    const s = await shop();
    const other = await shop();
    const limits = { ...wide, perStorePerMinute: 3 };
    const results: string[] = [];
    for (let i = 0; i < 8; i++)
      results.push(await outcome(createOrder(s.db, s.owner, net, body(s.productId), { clientAddress: `192.0.2.${i}`, limits })));
    expect(results.filter((r) => r === 'rate_limited').length).toBeGreaterThanOrEqual(2);
    expect(await outcome(createOrder(other.db, other.owner, net, body(other.productId), { limits }))).toBe('ok');
  });

  it('a store holds at most maxOpenOrders unpaid orders, even under a concurrent burst; cancelling one makes room', async () => {
    const s = await shop();
    const limits = { ...wide, maxOpenOrders: 2 };
    const burst = await Promise.all(Array.from({ length: 6 }, () => outcome(createOrder(s.db, s.owner, net, body(s.productId), { limits }))));
    expect(burst.filter((r) => r === 'ok')).toHaveLength(2);
    expect(burst.filter((r) => r === 'too_many_open_orders')).toHaveLength(4);
    const list = await call('GET', '/v1/orders', { key: s.test });
    expect(list.body.data).toHaveLength(2);
    // A refused order is rolled back whole: no invoice (and no deposit address) left behind.
    expect((await call('GET', '/v1/invoices', { key: s.test })).body.data).toHaveLength(2);
    expect((await call('POST', `/v1/orders/${list.body.data[0].id}/cancel`, { key: s.test })).status).toBe(200);
    expect(await outcome(createOrder(s.db, s.owner, net, body(s.productId), { limits }))).toBe('ok');
  });
});
