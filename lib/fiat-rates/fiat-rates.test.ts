import { type Hex } from 'viem';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { setFiatRateOverride } from './config';
import { clearFiatRateCache } from './get-fiat-rate';

let chain: AnvilChain;
let net: Network;
let ex: Awaited<ReturnType<typeof startTestExchange>>;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  ex = await startTestExchange(chain);
});
afterAll(async () => {
  await ex?.stop();
});
afterEach(() => {
  ex.sim.fiat.down = false;
  ex.sim.fiat.rates.EUR = '1.08';
  setFiatRateOverride('test', undefined);
  clearFiatRateCache();
});

const create = (key: string, body: Record<string, unknown>) => call('POST', '/v1/invoices', { key, body });

describe('fiat-priced invoices', () => {
  it('a EUR invoice locks its rate: amountExpected follows, a later rate change does not re-price it, it is paid in USDT', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const res = await create(t.test, { amount: '100.00', currency: 'EUR' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      amountExpected: '108.00',
      priceCurrency: 'EUR',
      priceAmount: '100.00',
      rate: '1.08',
      rateSource: 'exchange-sim',
    });
    expect(Date.now() - Date.parse(res.body.rateAt)).toBeLessThan(60_000);
    // A move within the band (lib/fiat-rates/rate-checks.test.ts: a larger one is not taken).
    ex.sim.fiat.rates.EUR = '1.1';
    setFiatRateOverride('test', { refreshMs: 0 });
    const next = await create(t.test, { amount: '100.00', currency: 'EUR' });
    expect(next.body).toMatchObject({ amountExpected: '110.00', rate: '1.1' });
    const pay = await call('POST', `/v1/test-helpers/invoices/${res.body.id}/pay`, { key: t.test, body: { amount: '108' } });
    await chain.client.waitForTransactionReceipt({ hash: pay.body.txHash as Hex });
    await jobs();
    await chain.mine(5);
    await jobs();
    const d = (await call('GET', `/v1/invoices/${res.body.id}`, { key: t.test })).body;
    expect(d).toMatchObject({ status: 'PAID_OUT', amountExpected: '108.00', rate: '1.08', amountCredited: '106.92' });
  });

  it('rounds the USDT half-up to 2 decimals; USDT (the default) carries no pricing fields', async () => {
    const t = await createTestTenant();
    const jpy = await create(t.test, { amount: '1234', currency: 'JPY' });
    expect(jpy.body).toMatchObject({ amountExpected: '8.27', priceCurrency: 'JPY', priceAmount: '1234.00', rate: '0.0067' }); // 8.2678
    const usdt = await create(t.test, { amount: '10.00', currency: 'USDT' });
    expect(usdt.status).toBe(201);
    expect(usdt.body.priceCurrency).toBeUndefined();
    expect(usdt.body.rate).toBeUndefined();
  });

  it('bad input: unknown or lower-case currency, a price under 0.01 USDT once converted are 400 with a code', async () => {
    const t = await createTestTenant();
    for (const currency of ['XYZ', 'eur', 'BTC', 1, null]) {
      const res = await create(t.test, { amount: '10.00', currency });
      expect(res.status, String(currency)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(JSON.stringify(res.body.details)).toContain('currency');
    }
    const tiny = await create(t.test, { amount: '0.5', currency: 'JPY' });
    expect(tiny.status, tiny.text).toBe(400);
    expect(tiny.body.code).toBe('invalid_amount');
  });

  it('rate source down: a fresh cached rate still prices invoices (this process, then the database for another one)', async () => {
    const t = await createTestTenant();
    const first = await create(t.test, { amount: '10.00', currency: 'EUR' });
    expect(first.status, first.text).toBe(201);
    ex.sim.fiat.down = true;
    setFiatRateOverride('test', { refreshMs: 0 });
    const cached = await create(t.test, { amount: '10.00', currency: 'EUR' });
    expect(cached.status, cached.text).toBe(201);
    expect(cached.body).toMatchObject({ amountExpected: '10.80', rateAt: first.body.rateAt });
    clearFiatRateCache(); // a process that never saw the rate: the database row serves it
    const fromDb = await create(t.test, { amount: '10.00', currency: 'EUR' });
    expect(fromDb.status, fromDb.text).toBe(201);
    expect(fromDb.body).toMatchObject({ amountExpected: '10.80', rateSource: 'exchange-sim' });
  });

  it('rate source down and the last rate older than the staleness limit: 503 rate_unavailable', async () => {
    const t = await createTestTenant();
    expect((await create(t.test, { amount: '10.00', currency: 'GBP' })).status).toBe(201);
    ex.sim.fiat.down = true;
    setFiatRateOverride('test', { refreshMs: 0, maxAgeMs: 1 });
    await new Promise((r) => setTimeout(r, 20));
    const res = await create(t.test, { amount: '10.00', currency: 'GBP' });
    expect(res.status, res.text).toBe(503);
    expect(res.body.code).toBe('rate_unavailable');
    expect(res.body.message).toMatch(/GBP/);
    expect(res.headers.get('retry-after')).toBe('30');
    // USDT invoices need no rate.
    expect((await create(t.test, { amount: '10.00' })).status).toBe(201);
  });
});
