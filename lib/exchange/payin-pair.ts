import { ApiError } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';
import { checkPair } from './check-pair';
import type { ExchangeClient } from './client';
import { USDT_BSC } from './currencies';
import type { CreateParams, FfPrice } from './types';

/**
 * The pair of a pay-in: payinCurrency → USDT on BSC, fixed rate, direction
 * `to` so the invoice receives exactly `amount` USDT. Checked like any pair;
 * errors name payinCurrency and carry the allowed USDT range.
 */
export async function checkPayinPair(
  client: ExchangeClient,
  mode: Mode,
  payinCurrency: string,
  amount: string,
): Promise<{ params: Omit<CreateParams, 'toAddress'>; quote: FfPrice }> {
  if (payinCurrency === USDT_BSC) {
    throw new ApiError('validation_failed', 'USDTBSC is paid directly: omit payinCurrency.', [
      { path: 'payinCurrency', message: 'omit it for USDT (BEP-20)' },
    ]);
  }
  const params = { type: 'fixed' as const, fromCcy: payinCurrency, toCcy: USDT_BSC, direction: 'to' as const, amount };
  const quote = await checkPair(client, mode, params, { from: 'payinCurrency', to: 'payinCurrency' });
  return { params, quote };
}
