import { asc, eq } from 'drizzle-orm';
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { subscriptionPeriods, subscriptions } from '@/db/schema';
import { setFiatRateOverride } from '@/lib/fiat-rates/config';
import { clearFiatRateCache } from '@/lib/fiat-rates/get-fiat-rate';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { runBilling } from './run-billing';

/*
 * Fiat-priced plans: each period's invoice is the plan's fiat price converted at the gateway's fiat rate (the exchange
 * simulator's /rates/fiat, as for fiat-priced invoices) when the period is billed, the rate recorded on the period and
 * the invoice. No rate is an error: the period is not billed and the next run bills it. The clock is moved, never slept.
 */
let ex: Awaited<ReturnType<typeof startTestExchange>>;
let t: Awaited<ReturnType<typeof createTestTenant>>;
let chain: AnvilChain;

withTestChain(async (c: AnvilChain) => {
  chain = c;
  ex = await startTestExchange(c);
});
beforeAll(async () => {
  t = await createTestTenant();
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

const DAY = 86_400_000;
const createPlan = (body: Record<string, unknown>) => call('POST', '/v1/plans', { key: t.test, body });
const periodsOf = (id: string) =>
  t.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, id)).orderBy(asc(subscriptionPeriods.periodStart));
const invoice = async (id: string) => (await call('GET', `/v1/invoices/${id}`, { key: t.test })).body;
/** The period's invoice paid in full on chain and seen by the watcher (an unpaid one would go past due, not renew). */
async function pay(invoiceId: string) {
  const { amountExpected } = await invoice(invoiceId);
  const res = await call('POST', `/v1/test-helpers/invoices/${invoiceId}/pay`, { key: t.test, body: { amount: amountExpected } });
  expect(res.status, res.text).toBe(200);
  await chain.client.waitForTransactionReceipt({ hash: res.body.txHash as Hex });
  await runInvoiceJobs(t.db, chain.network('test'), { retry: { maxAttempts: 2, backoffMs: 0 } });
  expect((await invoice(invoiceId)).status).toBe('DETECTED');
}

describe('fiat-priced plans', () => {
  it('converts each period at the rate of its billing, recorded on the period and the invoice; a failed rate read bills nothing until a later run', async () => {
    const plan = await createPlan({ name: 'Pro (EUR)', price: { currency: 'EUR', amount: '9.99' }, interval: 'day' });
    expect(plan.status, plan.text).toBe(201);
    expect(plan.body).toMatchObject({ amount: null, price: { currency: 'EUR', amount: '9.99' }, token: 'USDT' });
    expect((await call('GET', `/v1/plans/${plan.body.id}`, { key: t.test })).body.price).toEqual({ currency: 'EUR', amount: '9.99' });

    const created = await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'eve@example.com' } });
    expect(created.status, created.text).toBe(201);
    const sub = created.body;
    expect(sub).toMatchObject({ status: 'active', amount: '9.99', priceCurrency: 'EUR' });
    // 9.99 × 1.08 = 10.7892 → 10.79 USDT (half-up, 2 decimals, as a fiat-priced invoice).
    expect(await invoice(sub.latestInvoiceId)).toMatchObject({
      amountExpected: '10.79',
      priceCurrency: 'EUR',
      priceAmount: '9.99',
      rate: '1.08',
      rateSource: 'exchange-sim',
    });
    const [first] = await periodsOf(sub.id);
    expect(first).toMatchObject({ amount: '10.790000000000000000', priceCurrency: 'EUR', rate: '1.080000000000000000', rateSource: 'exchange-sim' });
    expect(Date.now() - first!.rateAt!.getTime()).toBeLessThan(60_000);

    await pay(sub.latestInvoiceId);
    // The next period, after the rate moved (within the band the rate checks allow).
    ex.sim.fiat.rates.EUR = '1.1';
    setFiatRateOverride('test', { refreshMs: 0 });
    const day2 = new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000);
    expect(await runBilling(t.db, { now: day2, tenantId: t.tenant.id })).toMatchObject({ failed: 0, events: { 'subscription.renewed': 1 } });
    const [, second] = await periodsOf(sub.id);
    expect(second).toMatchObject({ amount: '10.990000000000000000', rate: '1.100000000000000000' }); // 10.989
    expect(await invoice(second!.invoiceId)).toMatchObject({ amountExpected: '10.99', rate: '1.1', priceAmount: '9.99' });
    // The first period's invoice keeps its locked rate.
    expect(await invoice(first!.invoiceId)).toMatchObject({ amountExpected: '10.79', rate: '1.08' });

    await pay(second!.invoiceId);
    // The rate source is down and no last good rate is fresh enough: the period is not billed, nothing is guessed.
    ex.sim.fiat.down = true;
    setFiatRateOverride('test', { refreshMs: 0, maxAgeMs: 0 });
    clearFiatRateCache();
    const day3 = new Date(second!.periodEnd.getTime() + 60_000);
    expect(await runBilling(t.db, { now: day3, tenantId: t.tenant.id })).toMatchObject({ failed: 1, events: {} });
    expect(await periodsOf(sub.id)).toHaveLength(2);
    const [still] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(still).toMatchObject({ periodNumber: 1, currentPeriodEnd: second!.periodEnd });
    const invoices = await call('GET', '/v1/invoices?limit=100', { key: t.test });
    expect(invoices.body.data.filter((i: { metadata?: { subscriptionId?: string } }) => i.metadata?.subscriptionId === sub.id)).toHaveLength(2);

    // The source is back: the next run bills the period at the rate of now.
    ex.sim.fiat.down = false;
    clearFiatRateCache();
    setFiatRateOverride('test', { refreshMs: 0 });
    expect(await runBilling(t.db, { now: new Date(day3.getTime() + 60_000), tenantId: t.tenant.id })).toMatchObject({
      failed: 0,
      events: { 'subscription.renewed': 1 },
    });
    const third = (await periodsOf(sub.id))[2];
    expect(third).toMatchObject({ periodNumber: 2, amount: '10.990000000000000000', rate: '1.100000000000000000', priceCurrency: 'EUR' });
    expect(third!.periodStart.getTime()).toBe(second!.periodEnd.getTime());
    expect(third!.periodEnd.getTime() - third!.periodStart.getTime()).toBe(DAY);

    // Automatic collection's cap is a token amount: a fiat plan is paid by invoice.
    expect((await call('GET', `/v1/subscriptions/${sub.id}/collection`, { key: t.test })).body).toMatchObject({
      state: 'unsupported',
      authorize: null,
    });
  });

  it('a first period without a rate: POST /v1/subscriptions is 503 rate_unavailable and creates nothing', async () => {
    const plan = await createPlan({ name: 'Basic (GBP)', price: { currency: 'GBP', amount: '5.00' }, interval: 'month' });
    ex.sim.fiat.down = true;
    setFiatRateOverride('test', { refreshMs: 0, maxAgeMs: 0 });
    clearFiatRateCache();
    const res = await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'gil@example.com' } });
    expect(res.status, res.text).toBe(503);
    expect(res.body.code).toBe('rate_unavailable');
    const list = await call('GET', `/v1/subscriptions?planId=${plan.body.id}`, { key: t.test });
    expect(list.body.data).toEqual([]);
    // With a trial nothing is converted until the trial ends.
    const trial = await createPlan({ name: 'Trial (GBP)', price: { currency: 'GBP', amount: '5.00' }, interval: 'month', trialDays: 7 });
    const trialing = await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: trial.body.id, customerEmail: 'gil@example.com' } });
    expect(trialing.status, trialing.text).toBe(201);
    expect(trialing.body).toMatchObject({ status: 'trialing', priceCurrency: 'GBP', amount: '5.00', latestInvoiceId: null });
  });

  it('refuses both or neither of amount and price, an unknown currency, and a fiat price on a USDC plan; a token plan has price null', async () => {
    for (const body of [
      { name: 'x', amount: '5.00', price: { currency: 'EUR', amount: '5.00' }, interval: 'day' },
      { name: 'x', interval: 'day' },
      { name: 'x', price: { currency: 'eur', amount: '5.00' }, interval: 'day' },
      { name: 'x', price: { currency: 'BTC', amount: '5.00' }, interval: 'day' },
      { name: 'x', price: { currency: 'EUR', amount: '5.001' }, interval: 'day' },
      { name: 'x', price: { currency: 'EUR' }, interval: 'day' },
      { name: 'x', price: { currency: 'EUR', amount: '5.00' }, token: 'USDC', interval: 'day' },
    ]) {
      const res = await createPlan(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const usdc = await createPlan({ name: 'x', price: { currency: 'EUR', amount: '5.00' }, token: 'USDC', interval: 'day' });
    expect(usdc.body.details).toEqual([expect.objectContaining({ path: 'price' })]);
    const token = await createPlan({ name: 'Token', amount: '5.00', interval: 'day' });
    expect(token.body).toMatchObject({ amount: '5.00', price: null });
  });
});
