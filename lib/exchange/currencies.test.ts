import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import type { ExchangeClient } from './client';
import { clearCurrencyCache, getCurrencies } from './currencies';
import { ExchangeBusyError } from './errors';

describe('getCurrencies', () => {
  it('maps a failed fetch to exchange_busy for every caller sharing it (found by the exchange fault test: the second caller got a 500)', async () => {
    clearCurrencyCache();
    let reject!: (err: unknown) => void;
    const client = {
      keyHash: 'k',
      config: { url: 'http://127.0.0.1:1' },
      ccies: () => new Promise((_, r) => (reject = r)),
    } as unknown as ExchangeClient;
    const first = getCurrencies(client, 'test').catch((e: unknown) => e);
    const second = getCurrencies(client, 'test').catch((e: unknown) => e);
    reject(new ExchangeBusyError(new Date(Date.now() + 5_000)));
    for (const err of await Promise.all([first, second])) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('exchange_busy');
    }
  });
});
