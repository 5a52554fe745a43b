import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { clearCurrencyCache } from './currencies';

/*
 * USDT on TRON through the exchange (USDTTRC) was the interim way to accept TRON USDT (docs/tron.md §7). With the
 * TRON:USDT rail enabled it is paid directly: a USDT invoice refuses USDTTRC as a pay-in and the currency list
 * leaves it out; without the rail it is an ordinary pay-in currency again.
 */
let ex: Awaited<ReturnType<typeof startTestExchange>>;
let tron: TronRail | undefined;
beforeAll(async () => {
  ex = await startTestExchange();
  tron = await startTronRail();
}, 60_000);
afterAll(async () => {
  await tron?.stop();
  await ex?.stop();
});

const quote = (key: string, body: Record<string, string>) => call('POST', '/v1/invoices/payin/quote', { key, body: { amount: '50.00', ...body } });
const codes = async (key: string) => {
  const res = await call('GET', '/v1/invoices/payin/currencies', { key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((c: { code: string }) => c.code) as string[];
};

describe('USDTTRC as a pay-in currency', () => {
  it('is refused as "pay directly on the TRON rail" while TRON:USDT is enabled, and not listed', async () => {
    const t = await createTestTenant();
    const q = await quote(t.test, { payinCurrency: 'USDTTRC' });
    expect(q.status, q.text).toBe(400);
    expect(q.body.message).toContain('USDTTRC is USDT on TRON, a rail this gateway accepts: pay directly on it');
    expect(q.body.details).toEqual([expect.objectContaining({ path: 'payinCurrency' })]);
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '50.00', payinCurrency: 'usdttrc' } });
    expect(inv.status, inv.text).toBe(400);
    expect(inv.body.message).toContain('pay directly on it (chain TRON, token USDT)');
    expect(await codes(t.test)).not.toContain('USDTTRC');
    // Other coins still go through the exchange.
    expect((await quote(t.test, { payinCurrency: 'BTC' })).status).toBe(200);
  });

  it('is an ordinary pay-in once TRON:USDT is not enabled', async () => {
    await tron!.stop();
    tron = undefined;
    clearCurrencyCache();
    const t = await createTestTenant();
    const q = await quote(t.test, { payinCurrency: 'USDTTRC' });
    expect(q.status, q.text).toBe(200);
    expect(q.body).toMatchObject({ payinCurrency: 'USDTTRC', currency: 'USDT', amount: '50' });
    expect(await codes(t.test)).toContain('USDTTRC');
  });
});
