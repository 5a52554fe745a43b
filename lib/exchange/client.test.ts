import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createExchangeClient, encodeBody } from './client';
import { ExchangeApiError, ExchangeRateLimitedError } from './errors';
import { signBody } from './sign';
import { startExchangeSim } from '@/devtools/exchange-sim/server';

describe('signing', () => {
  it('matches known answers (hex HMAC-SHA256 of the exact body bytes)', () => {
    expect(signBody('test-secret', '{}')).toBe('2f59040b63b7200598444239da2c9a4f3abc5c434259b23126d72514dab8cd09');
    const body = encodeBody({ type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount: '100.50' });
    expect(body).toBe('{"type":"fixed","fromCcy":"USDTBSC","toCcy":"BTC","direction":"from","amount":100.50}');
    expect(signBody('test-secret', body)).toBe('5e257595d3914d86a8691ac2ba100e79ee0d92977f470a5ebe8b919364808e27');
  });

  it('sends amounts as exact JSON numbers and refuses non-decimals', () => {
    expect(encodeBody({ amount: '0.123456789012345678' })).toBe('{"amount":0.123456789012345678}');
    expect(() => encodeBody({ amount: '1e5' })).toThrow();
  });
});

describe('against the simulator', () => {
  let ex: Awaited<ReturnType<typeof startTestExchange>>;
  beforeAll(async () => {
    // A one-second window keeps the test short; weights and the limit are the real ones.
    ex = await startTestExchange(undefined, { limit: { limit: 250, windowMs: 1000, blockMs: 300 }, config: { windowMs: 1000 } });
  });
  afterAll(() => ex?.stop());

  it('a bad signature is a typed error with the exchange code', async () => {
    const client = createExchangeClient(await getDb(), { ...ex.config, apiSecret: 'wrong' });
    const err = await client.ccies().catch((e) => e);
    expect(err).toBeInstanceOf(ExchangeApiError);
    expect(err.msg).toBe('Invalid signature');
  });

  it('20 concurrent callers never exceed the weight budget (the simulator counts)', async () => {
    const db = await getDb();
    const rejectedBefore = ex.sim.limiter.stats().rejected;
    const caller = async (i: number) => {
      const client = createExchangeClient(db, ex.config); // one client per "process"
      await client.create(
        { type: 'float', fromCcy: 'BTC', toCcy: 'USDTBSC', direction: 'to', amount: '100', toAddress: `0x${String(i).padStart(40, '0')}` },
        { maxWaitMs: 30_000 },
      );
      for (let k = 0; k < 5; k++)
        await client.price({ type: 'float', fromCcy: 'BTC', toCcy: 'ETH', direction: 'from', amount: '0.1' }, { maxWaitMs: 30_000 });
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => caller(i)));
    const key = ex.config.apiKey;
    expect(ex.sim.limiter.stats().rejected).toBe(rejectedBefore);
    expect(ex.sim.limiter.log.filter((x) => x.key === key && x.w === 50)).toHaveLength(20);
    expect(ex.sim.limiter.maxWindowWeight(key, 1000)).toBeLessThanOrEqual(250);
  });

  it('429: backs off for every process, then succeeds without hammering', async () => {
    const db = await getDb();
    await new Promise((r) => setTimeout(r, 1200)); // an empty window
    // Another user of the same key (outside our budget) uses the exchange's whole window.
    for (let i = 0; i < 5; i++) {
      const body = encodeBody({ type: 'float', fromCcy: 'BTC', toCcy: 'USDTBSC', direction: 'to', amount: '100', toAddress: `0x${'1'.repeat(40)}` });
      await fetch(`${ex.sim.url}/api/v2/create`, {
        method: 'POST',
        body,
        headers: { 'X-API-KEY': ex.config.apiKey, 'X-API-SIGN': signBody(ex.config.apiSecret, body) },
      });
    }
    const rejectedBefore = ex.sim.limiter.stats().rejected;
    const client = createExchangeClient(db, ex.config, { backoffBaseMs: 400 });
    const started = Date.now();
    const list = await client.ccies({ maxWaitMs: 10_000 });
    expect(list.length).toBeGreaterThanOrEqual(60);
    const refused = ex.sim.limiter.stats().rejected - rejectedBefore;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    // create is never retried: a 429 on create surfaces as a typed error and no second order appears.
    const sim2 = await startExchangeSim({ keys: { k2: 's2' }, limit: { limit: 250, windowMs: 1000, blockMs: 300 }, log: () => {} });
    try {
      for (let i = 0; i < 5; i++) {
        const body = encodeBody({
          type: 'float',
          fromCcy: 'BTC',
          toCcy: 'USDTBSC',
          direction: 'to',
          amount: '100',
          toAddress: `0x${'1'.repeat(40)}`,
        });
        await fetch(`${sim2.url}/api/v2/create`, { method: 'POST', body, headers: { 'X-API-KEY': 'k2', 'X-API-SIGN': signBody('s2', body) } });
      }
      const err = await createExchangeClient(db, { ...ex.config, url: sim2.url, apiKey: 'k2', apiSecret: 's2' })
        .create(
          { type: 'float', fromCcy: 'BTC', toCcy: 'USDTBSC', direction: 'to', amount: '100', toAddress: `0x${'2'.repeat(40)}` },
          { maxWaitMs: 10_000 },
        )
        .catch((e) => e);
      expect(err).toBeInstanceOf(ExchangeRateLimitedError);
      expect(sim2.orders.size).toBe(5);
      expect(sim2.limiter.stats().rejected).toBe(1);
    } finally {
      await sim2.stop();
    }
  });
});
