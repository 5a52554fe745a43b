import { ApiError } from '@/lib/api/errors';
import type { Asset, ChainKey } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';
import { getRail } from '@/lib/chain/network';
import { checkPair } from './check-pair';
import type { ExchangeClient } from './client';
import { railOfExchangeCode } from './rail-currencies';
import { requireRailCurrency } from './require-rail-currency';
import type { CreateParams, FfPrice } from './types';

const norm = (code: string) => code.trim().toUpperCase();

/**
 * The pair of a pay-in: payinCurrency → the invoice's rail (its token on its
 * network, by the exchange's code for it), fixed rate, direction `to` so the
 * invoice receives exactly `amount` of its token. Checked like any pair;
 * errors name payinCurrency and carry the allowed range in the rail's token. The invoice's own rail and its token on
 * another enabled rail are refused: those are paid directly.
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
  // The invoice's token on another enabled rail (USDTTRC for a USDT invoice while TRON:USDT is on) is paid there
  // directly: through the exchange the same USDT would cost the payer its spread and a second network fee.
  const direct = railOfExchangeCode(payinCurrency);
  if (direct && direct.token === rail.token && getRail(mode, direct.chain, direct.token)) {
    throw new ApiError(
      'validation_failed',
      `${norm(payinCurrency)} is ${direct.token} on ${direct.chain}, a rail this gateway accepts: pay directly on it (chain ${direct.chain}, token ${direct.token}) and omit payinCurrency.`,
      [{ path: 'payinCurrency', message: `pay directly on the ${direct.chain} rail: omit it and set chain ${direct.chain}, token ${direct.token}` }],
    );
  }
  const params = { type: 'fixed' as const, fromCcy: payinCurrency, toCcy: to.code, direction: 'to' as const, amount };
  const quote = await checkPair(client, mode, params, { from: 'payinCurrency', to: 'payinCurrency' });
  return { params, quote };
}
