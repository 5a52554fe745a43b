import { ApiError } from '@/lib/api/errors';
import type { Asset, ChainKey } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';
import { checkPair } from './check-pair';
import type { ExchangeClient } from './client';
import { requireRailCurrency } from './require-rail-currency';
import type { CreateParams, FfPrice } from './types';

/**
 * The pair of a pay-in: payinCurrency → the invoice's rail (its token on its
 * network, by the exchange's code for it), fixed rate, direction `to` so the
 * invoice receives exactly `amount` of its token. Checked like any pair;
 * errors name payinCurrency and carry the allowed range in the rail's token.
 */
export async function checkPayinPair(
  client: ExchangeClient,
  mode: Mode,
  payinCurrency: string,
  amount: string,
  rail: { chain: ChainKey; token: Asset },
): Promise<{ params: Omit<CreateParams, 'toAddress'>; quote: FfPrice }> {
  const to = await requireRailCurrency(client, mode, rail, 'token');
  if (payinCurrency === to.code) {
    throw new ApiError('validation_failed', `${to.code} is this invoice's own rail and is paid directly: omit payinCurrency.`, [
      { path: 'payinCurrency', message: `omit it for ${rail.token} on ${rail.chain}` },
    ]);
  }
  const params = { type: 'fixed' as const, fromCcy: payinCurrency, toCcy: to.code, direction: 'to' as const, amount };
  const quote = await checkPair(client, mode, params, { from: 'payinCurrency', to: 'payinCurrency' });
  return { params, quote };
}
