import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { exchangeOrders, invoices } from '@/db/schema';
import { type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { trackExchangeOrders } from './track-orders';

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

describe('pay-in from another coin', () => {
  it('lists payable currencies and quotes', async () => {
    const t = await createTestTenant();
    const cur = await call('GET', '/v1/invoices/payin/currencies', { key: t.test });
    expect(cur.status, cur.text).toBe(200);
    const codes = cur.body.data.map((c: { code: string }) => c.code);
    expect(codes).toContain('BTC');
    expect(codes).not.toContain('USDTBSC');
    expect(codes).not.toContain('BTCLN'); // send disabled
    expect(cur.body.data.find((c: { code: string }) => c.code === 'XRP')).toMatchObject({ network: 'XRP', tag: 'Destination tag' });
    const q = await call('POST', '/v1/invoices/payin/quote', { key: t.test, body: { payinCurrency: 'btc', amount: '50.00' } });
    expect(q.status, q.text).toBe(200);
    expect(q.body).toMatchObject({
      payinCurrency: 'BTC',
      amount: '50',
      currency: 'USDT',
      min: expect.any(String),
      max: expect.any(String),
      validForSeconds: 60,
    });
    expect(Number(q.body.payinAmount)).toBeGreaterThan(50 / 64000);
  });

  it('a BTC invoice paid through the control endpoint ends PAID_OUT with the USDT credited', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '50.00', payinCurrency: 'BTC', externalId: 'payin-1' } });
    expect(res.status, res.text).toBe(201);
    const inv = res.body;
    expect(inv).toMatchObject({ status: 'PENDING', amountExpected: '50.00', payinCurrency: 'BTC', payinStatus: 'NEW' });
    expect(inv.depositAddress).toMatch(/^bc1q/);
    const [exo] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.invoiceId, inv.id));
    expect(exo).toMatchObject({ state: 'open', purpose: 'payin', toCcy: 'USDTBSC', direction: 'to', fromCcy: 'BTC' });
    expect(inv.payinAmount).toBe(exo!.fromAmount!.replace(/0+$/, '').replace(/\.$/, ''));
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(exo!.toAddress.toLowerCase()).toBe(row!.depositAddress);

    const dep = await fetch(`${ex.sim.url}/control/orders/${exo!.exchangeId}/deposit`, { method: 'POST', body: '{}' });
    expect(dep.status).toBe(200);
    let d: any;
    for (let i = 0; i < 80; i++) {
      await chain.mine(1);
      await jobs();
      await t.db.update(exchangeOrders).set({ nextCheckAt: new Date() }).where(eq(exchangeOrders.id, exo!.id));
      await trackExchangeOrders(t.db);
      d = (await call('GET', `/v1/invoices/${inv.id}`, { key: t.test })).body;
      if (d.status === 'PAID_OUT' && d.payinStatus === 'DONE') break;
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(d).toMatchObject({
      status: 'PAID_OUT',
      amountReceived: '50.00',
      amountCredited: '49.50',
      payinStatus: 'DONE',
      depositAddress: inv.depositAddress,
    });
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('49.50');
  });

  it('rejects an amount below the minimum and an unknown currency with the allowed range', async () => {
    const t = await createTestTenant();
    const low = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '1.00', payinCurrency: 'BTC' } });
    expect(low.status).toBe(400);
    expect(low.body.code).toBe('amount_out_of_range');
    expect(low.body.message).toMatch(/between [\d.]+ and [\d.]+ USDTBSC/);
    const unknown = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '50.00', payinCurrency: 'NOPE' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_currency');
    const disabled = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '50.00', payinCurrency: 'TUSD' } });
    expect(disabled.status).toBe(400);
    expect(disabled.body.code).toBe('currency_unavailable');
    expect((await call('GET', '/v1/invoices', { key: t.test })).body.meta.total).toBe(0);
  });
});
