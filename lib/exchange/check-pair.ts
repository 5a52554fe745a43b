import { ApiError } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';
import type { ExchangeClient } from './client';
import { getCurrencies } from './currencies';
import { toApiError } from './to-api-error';
import type { FfPrice, PairParams } from './types';

/**
 * Validates a pair and amount before anything costly happens: both codes
 * known and enabled in the needed direction (from the cached list), then a
 * price (1 weight) whose errors become 400s carrying the allowed range.
 * Returns the quote.
 */
export async function checkPair(client: ExchangeClient, mode: Mode, p: PairParams, fields = { from: 'fromCcy', to: 'toCcy' }): Promise<FfPrice> {
  const list = await getCurrencies(client, mode);
  for (const [side, code, flag] of [
    ['from', p.fromCcy, 'send'],
    ['to', p.toCcy, 'recv'],
  ] as const) {
    const c = list.find((x) => x.code === code);
    const path = fields[side];
    if (!c)
      throw new ApiError('unknown_currency', `Unknown currency "${code}". See the currencies endpoint for the codes.`, [
        { path, message: 'unknown currency code' },
      ]);
    if (!c[flag]) {
      throw new ApiError('currency_unavailable', `${code} cannot be ${side === 'from' ? 'sent' : 'received'} at the exchange right now.`, [
        { path, message: `${flag} disabled` },
      ]);
    }
  }
  let quote: FfPrice;
  try {
    quote = await client.price(p, { maxWaitMs: 10_000 });
  } catch (err) {
    return toApiError(err);
  }
  const errors = quote.errors ?? [];
  const limits = p.direction === 'from' ? quote.from : quote.to;
  const unit = p.direction === 'from' ? p.fromCcy : p.toCcy;
  if (errors.includes('LIMIT_MIN') || errors.includes('LIMIT_MAX')) {
    throw new ApiError('amount_out_of_range', `Amount must be between ${limits.min} and ${limits.max} ${unit} for ${p.fromCcy} → ${p.toCcy}.`, [
      { path: 'amount', message: `min ${limits.min}, max ${limits.max} ${unit}` },
    ]);
  }
  const other = errors.filter((e) => !e.startsWith('LIMIT_'));
  if (other.length > 0) {
    throw new ApiError('currency_unavailable', `The exchange cannot take this pair now (${other.join(', ')}).`, [
      { path: 'fromCcy', message: other.join(', ') },
    ]);
  }
  return quote;
}
