import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { setFiatRateOverride } from './config';
import { clearFiatRateCache } from './get-fiat-rate';

/*
 * A fetched rate is checked before it prices anything: against the last good rate (a move beyond
 * the band is refused), for a source timestamp, and, with two sources, against the other source.
 * A refused answer takes the outage path: the last good rate while it is fresh enough, then 503.
 * Each test uses its own currency (CAD, AUD, CHF): the last good rates are shared per mode.
 */
withTestChain(() => undefined);

/** A rate feed whose answer each test sets: a body (`at` added as now unless given), or null for a 500. */
function feed(source: string) {
  let answer: Record<string, unknown> | null = null;
  let server: Server;
  const ready = new Promise<string>((resolve) => {
    server = createServer((_req, res) => {
      if (!answer) {
        res.writeHead(500).end('{"error":"down"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ source, at: new Date().toISOString(), ...answer }));
    }).listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/rates`));
  });
  return {
    url: ready,
    rates: (rates: Record<string, string>, extra: Record<string, unknown> = {}) => {
      answer = { rates, ...extra };
    },
    down: () => {
      answer = null;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

const a = feed('feed-a');
const b = feed('feed-b');
afterAll(async () => {
  await a.close();
  await b.close();
});
afterEach(() => {
  setFiatRateOverride('test', undefined);
  clearFiatRateCache();
});

let config: Parameters<typeof setFiatRateOverride>[1];
async function sources(opts: { two?: boolean } = {}) {
  config = { url: await a.url, secondUrl: opts.two ? await b.url : null, refreshMs: 0, retryAfterFailureMs: 0, maxMovePercent: 5 };
  setFiatRateOverride('test', config);
}
const create = (key: string, amount: string, currency: string) => call('POST', '/v1/invoices', { key, body: { amount, currency } });

/** Until the rate locked at `rateAt` is older than a 1 ms staleness limit (a condition, not a fixed sleep). */
async function pastStalenessLimit(rateAt: string) {
  setFiatRateOverride('test', { ...config, maxAgeMs: 1 });
  while (Date.now() - Date.parse(rateAt) <= 2) await new Promise((r) => setTimeout(r, 1));
}

describe('fiat rates are checked before they price an invoice', () => {
  it('a rate that moved more than the band from the last good one is not used: the last good prices invoices, then 503', async () => {
    const t = await createTestTenant();
    await sources();
    a.rates({ CAD: '0.73' });
    const first = await create(t.test, '100.00', 'CAD');
    expect(first.body).toMatchObject({ amountExpected: '73.00', rate: '0.73', rateSource: 'feed-a' });
    // 0.80 is 9.6 % above 0.73: refused, the last good rate (and its time) prices the invoice.
    a.rates({ CAD: '0.80' });
    const jumped = await create(t.test, '100.00', 'CAD');
    expect(jumped.status, jumped.text).toBe(201);
    expect(jumped.body).toMatchObject({ amountExpected: '73.00', rate: '0.73', rateAt: first.body.rateAt });
    // Within the band (2.7 %): taken, and it is the new last good rate.
    a.rates({ CAD: '0.75' });
    const moved = await create(t.test, '100.00', 'CAD');
    expect(moved.body).toMatchObject({ amountExpected: '75.00', rate: '0.75' });
    a.rates({ CAD: '0.80' }); // 6.7 % above 0.75
    await pastStalenessLimit(moved.body.rateAt);
    const refused = await create(t.test, '100.00', 'CAD');
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body).toMatchObject({ code: 'rate_unavailable', message: expect.stringMatching(/CAD.*moved/) });
  });

  it('an answer without a source timestamp, or one older than the staleness limit, is not used', async () => {
    const t = await createTestTenant();
    await sources();
    a.rates({ AUD: '0.66' });
    const first = await create(t.test, '100.00', 'AUD');
    expect(first.body).toMatchObject({ amountExpected: '66.00', rate: '0.66' });
    a.rates({ AUD: '0.67' }, { at: undefined });
    const untimed = await create(t.test, '100.00', 'AUD');
    expect(untimed.body).toMatchObject({ amountExpected: '66.00', rate: '0.66', rateAt: first.body.rateAt });
    a.rates({ AUD: '0.67' }, { at: new Date(Date.now() - 3_600_000).toISOString() });
    const old = await create(t.test, '100.00', 'AUD');
    expect(old.body).toMatchObject({ amountExpected: '66.00', rate: '0.66', rateAt: first.body.rateAt });
    a.rates({ AUD: '0.67' }, { at: undefined });
    await pastStalenessLimit(first.body.rateAt);
    const refused = await create(t.test, '100.00', 'AUD');
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body).toMatchObject({ code: 'rate_unavailable', message: expect.stringMatching(/timestamp/) });
  });

  it('two sources: used only when both answer and agree within the band (their mean); otherwise the outage path', async () => {
    const t = await createTestTenant();
    await sources({ two: true });
    a.rates({ CHF: '1.13' });
    b.rates({ CHF: '1.12' });
    const agreed = await create(t.test, '100.00', 'CHF');
    expect(agreed.body).toMatchObject({ amountExpected: '112.50', rate: '1.125', rateSource: 'feed-a+feed-b' });
    // 1.13 against 1.30: 15 % apart.
    b.rates({ CHF: '1.30' });
    const disagree = await create(t.test, '100.00', 'CHF');
    expect(disagree.body).toMatchObject({ amountExpected: '112.50', rate: '1.125', rateAt: agreed.body.rateAt });
    // One source down, or without the currency: not enough on its own.
    b.down();
    expect((await create(t.test, '100.00', 'CHF')).body).toMatchObject({ rate: '1.125', rateAt: agreed.body.rateAt });
    b.rates({ EUR: '1.08' });
    expect((await create(t.test, '100.00', 'CHF')).body).toMatchObject({ rate: '1.125', rateAt: agreed.body.rateAt });
    b.rates({ CHF: '1.30' });
    await pastStalenessLimit(agreed.body.rateAt);
    const refused = await create(t.test, '100.00', 'CHF');
    expect(refused.status, refused.text).toBe(503);
    expect(refused.body).toMatchObject({ code: 'rate_unavailable', message: expect.stringMatching(/disagree/) });
    // Both sources agreeing on a real move larger than the band: that is what lets it through.
    a.rates({ CHF: '1.30' });
    b.rates({ CHF: '1.29' });
    expect((await create(t.test, '100.00', 'CHF')).body).toMatchObject({ amountExpected: '129.50', rate: '1.295' });
  });
});
