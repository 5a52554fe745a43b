import { ApiError } from '@/lib/api/errors';
import type { Asset, ChainKey } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';
import type { ExchangeClient } from './client';
import { getCurrencies } from './currencies';
import { resolveRailCurrency } from './rail-currencies';
import type { FfCurrency } from './types';

/**
 * The exchange's currency for a rail, from its (cached) live list: what a
 * pay-in asks the exchange to pay out in and an exchange withdrawal sends.
 * A rail the exchange does not list is a 400 unknown_currency naming `path`
 * (nothing is sent to a code we could only guess). Send/recv flags are left to
 * checkPair, which maps them like any currency's.
 */
export async function requireRailCurrency(
  client: ExchangeClient,
  mode: Mode,
  rail: { chain: ChainKey; token: Asset },
  path: string,
): Promise<FfCurrency> {
  const found = resolveRailCurrency(await getCurrencies(client, mode), rail);
  if (!found) {
    throw new ApiError(
      'unknown_currency',
      `The exchange does not offer ${rail.token} on ${rail.chain}; exchange pay-ins and withdrawals on this rail are not possible.`,
      [{ path, message: `${rail.chain}:${rail.token} is not listed by the exchange` }],
    );
  }
  return found;
}
