import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { getCurrencies } from './currencies';
import { requireExchange } from './get-exchange';
import { ApiError } from '@/lib/api/errors';
import { toApiError } from './to-api-error';
import type { PairParams } from './types';
import { ok, priceRecord } from './view';

/**
 * POST /v1/withdrawals/exchange/price: the exchange's quote. An amount
 * outside the pair's limits is still a quote (code 0) whose `errors` say
 * LIMIT_MIN / LIMIT_MAX next to min and max, as the exchange reports it;
 * unknown codes are a 400.
 */
export async function getPrice(db: Db, owner: { tenantId: string; mode: Mode }, p: PairParams) {
  const mode = owner.mode;
  const client = requireExchange(db, mode, owner.tenantId);
  const list = await getCurrencies(client, mode);
  for (const [path, code] of [
    ['fromCcy', p.fromCcy],
    ['toCcy', p.toCcy],
  ] as const) {
    if (!list.some((c) => c.code === code))
      throw new ApiError('unknown_currency', `Unknown currency "${code}".`, [{ path, message: 'unknown currency code' }]);
  }
  try {
    return ok(priceRecord(await client.price(p, { maxWaitMs: 10_000 }), p.direction));
  } catch (err) {
    return toApiError(err);
  }
}
