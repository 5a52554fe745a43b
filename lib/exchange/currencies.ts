import type { Mode } from '@/lib/mode';
import type { ExchangeClient } from './client';
import type { FfCurrency } from './types';
import { toApiError } from './to-api-error';

/** FixedFloat's code for USDT on BNB Smart Chain (BEP-20): what the gateway holds. */
export const USDT_BSC = 'USDTBSC';

const TTL_MS = 5 * 60_000;
const cache = new Map<string, { at: number; list: Promise<FfCurrency[]> }>();

/**
 * The exchange's currency list, cached per process and API key for five
 * minutes: it changes rarely and every call costs weight.
 */
export async function getCurrencies(client: ExchangeClient, mode: Mode): Promise<FfCurrency[]> {
  const k = `${mode}:${client.keyHash}:${client.config.url}`;
  const hit = cache.get(k);
  const fresh = hit && Date.now() - hit.at < TTL_MS;
  // A concurrent caller shares the fetch in flight: its failure must be mapped too (it was a raw 500).
  const list = fresh ? hit.list : client.ccies({ maxWaitMs: 10_000 });
  if (!fresh) cache.set(k, { at: Date.now(), list });
  try {
    return await list;
  } catch (err) {
    if (cache.get(k)?.list === list) cache.delete(k);
    return toApiError(err);
  }
}

/** Tests: forget cached lists. */
export function clearCurrencyCache() {
  cache.clear();
}
