import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckoutLive } from '@/components/checkout/checkout-live';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';

/* The checkout of a fiat-priced invoice shows the rate it was converted at, not only the fiat price. */
let ex: Awaited<ReturnType<typeof startTestExchange>>;
withTestChain(async (c) => {
  ex = await startTestExchange(c);
});
afterAll(() => ex?.stop());

describe('checkout of a fiat-priced invoice', () => {
  it('shows the price, the locked rate and its time, in the status poll and on the page', async () => {
    const t = await createTestTenant();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '50.00', currency: 'EUR' } });
    expect(inv.status, inv.text).toBe(201);
    const res = await call('GET', `/api/pay/${inv.body.id}/status`);
    expect(res.body.price).toEqual({ currency: 'EUR', amount: '50.00', rate: '1.08', rateAt: inv.body.rateAt });
    const text = renderToStaticMarkup(createElement(CheckoutLive, { initial: res.body }))
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    expect(text).toContain('54.00 USDT');
    expect(text).toContain('50.00 EUR at 1.08 USDT per EUR');
  });
});
