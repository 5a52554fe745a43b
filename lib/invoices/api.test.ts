import { and, count, eq } from 'drizzle-orm';
import { mnemonicToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { events, invoices } from '@/db/schema';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';

let t: Awaited<ReturnType<typeof createTestTenant>>;
beforeAll(async () => {
  t = await createTestTenant();
});

async function written() {
  const [i] = await t.db.select({ n: count() }).from(invoices).where(eq(invoices.tenantId, t.tenant.id));
  const [e] = await t.db
    .select({ n: count() })
    .from(events)
    .where(and(eq(events.tenantId, t.tenant.id), eq(events.type, 'invoice.created')));
  return Number(i!.n) + Number(e!.n);
}

describe('POST /v1/invoices', () => {
  it('creates a PENDING invoice with an HD deposit address and the documented fields', async () => {
    const before = Date.now();
    const res = await call('POST', '/v1/invoices', {
      key: t.test,
      body: { amount: '25.5', externalId: 'o-1', description: 'Mug', metadata: { sku: 'MUG' } },
    });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b).toMatchObject({
      status: 'PENDING',
      amountExpected: '25.50',
      amountReceived: '0.00',
      chain: 'BSC',
      token: 'USDT',
      externalId: 'o-1',
      description: 'Mug',
      confirmationsRequired: 5,
      metadata: { sku: 'MUG' },
      txHashes: [],
    });
    expect(b.id).toMatch(/^inv_/);
    expect(b.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(b.expiresAt).toMatch(/\.\d{3}Z$/);
    const lifetime = Date.parse(b.expiresAt) - Date.parse(b.createdAt);
    expect(lifetime).toBe(30 * 60_000);
    expect(Date.parse(b.createdAt)).toBeGreaterThanOrEqual(before - 5);
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, b.id));
    expect(b.depositAddress).toBe(mnemonicToAccount(DEV_MNEMONIC, { addressIndex: row!.addressIndex }).address);
  });

  it('allocates a new address per invoice, never reused, also under concurrency', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/v1/invoices', { key: t.test, body: { amount: '1' } })));
    const addrs = results.map((r) => r.body.depositAddress);
    expect(new Set(addrs).size).toBe(20);
  });

  it('normalises trailing zeros before the 2-decimal rule and honours expiresInMinutes', async () => {
    const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '1000000000.000', expiresInMinutes: 5 } });
    expect(res.status).toBe(201);
    expect(res.body.amountExpected).toBe('1000000000.00');
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(5 * 60_000);
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['"abc"', { amount: 'abc' }, 'amount'],
    ['"-1"', { amount: '-1' }, 'amount'],
    ['"0"', { amount: '0' }, 'amount'],
    ['"1e3"', { amount: '1e3' }, 'amount'],
    ['"0.001"', { amount: '0.001' }, 'amount'],
    ['2,000,000,000', { amount: '2000000000' }, 'amount'],
    ['a number', { amount: 10 }, 'amount'],
    ['no amount', {}, 'amount'],
    ['an unknown chain', { amount: '1', chain: 'ETH' }, 'chain'],
    ['an unknown token', { amount: '1', token: 'DAI' }, 'token'],
    ['a token whose rail is not enabled', { amount: '1', token: 'USDC' }, 'token'],
    ['a network whose rails are not enabled', { amount: '1', chain: 'POLYGON' }, 'chain'],
    ['expiresInMinutes 4', { amount: '1', expiresInMinutes: 4 }, 'expiresInMinutes'],
    ['expiresInMinutes 10081', { amount: '1', expiresInMinutes: 10_081 }, 'expiresInMinutes'],
    ['a long externalId', { amount: '1', externalId: 'x'.repeat(256) }, 'externalId'],
    ['a long description', { amount: '1', description: 'x'.repeat(1001) }, 'description'],
    ['metadata over 8 KB', { amount: '1', metadata: { blob: 'x'.repeat(8200) } }, 'metadata'],
    ['metadata that is an array', { amount: '1', metadata: [1] }, 'metadata'],
    ['an unknown field', { amount: '1', colour: 'red' }, ''],
  ];
  it.each(bad)('400 with nothing written for %s', async (_label, body, path) => {
    const before = await written();
    const res = await call('POST', '/v1/invoices', { key: t.test, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await written()).toBe(before);
  });

  it('lists the allowed values for chain and token', async () => {
    const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '1', chain: 'DOGE', token: 'DAI' } });
    expect(res.body.message).toContain('must be one of: BSC');
    expect(res.body.details.find((d: { path: string }) => d.path === 'token').message).toBe('must be one of: USDT, USDC');
  });
});

describe('GET /v1/invoices', () => {
  it('pages newest first and filters by status, externalId and creation time', async () => {
    const u = await createTestTenant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await call('POST', '/v1/invoices', { key: u.test, body: { amount: '1', externalId: i % 2 ? 'odd' : 'even' } })).body.id);
    const page1 = await call('GET', '/v1/invoices?limit=2', { key: u.test });
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ total: 5, page: 1, lastPage: 3 });
    expect(page1.body.data.map((i: { id: string }) => i.id)).toEqual([ids[4], ids[3]]);
    const page3 = await call('GET', '/v1/invoices?limit=2&page=3', { key: u.test });
    expect(page3.body.data.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    const odd = await call('GET', '/v1/invoices?externalId=odd', { key: u.test });
    expect(odd.body.meta.total).toBe(2);
    expect((await call('GET', '/v1/invoices?status=PAID_OUT', { key: u.test })).body.meta.total).toBe(0);
    expect((await call('GET', '/v1/invoices?status=PENDING', { key: u.test })).body.meta.total).toBe(5);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await call('GET', `/v1/invoices?createdFrom=${future}`, { key: u.test })).body.meta.total).toBe(0);
    expect((await call('GET', `/v1/invoices?createdTo=${future}`, { key: u.test })).body.meta.total).toBe(5);
    expect((await call('GET', '/v1/invoices', { key: u.live })).body.meta.total).toBe(0);
  });

  it('400 for a bad filter or limit', async () => {
    for (const q of ['status=NOPE', 'limit=101', 'page=0', 'createdFrom=yesterday', 'colour=red']) {
      const res = await call('GET', `/v1/invoices?${q}`, { key: t.test });
      expect(res.status, q).toBe(400);
    }
  });
});

describe('test helper', () => {
  it('is a 404 for live keys', async () => {
    const inv = await call('POST', '/v1/invoices', { key: t.live, body: { amount: '1' } });
    const res = await call('POST', `/v1/test-helpers/invoices/${inv.body.id ?? 'inv_x'}/pay`, { key: t.live, body: { amount: '1' } });
    expect(res.status).toBe(404);
  });
});
