import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { addressWindowLimit } from '@/lib/http/address-window-limit';
import { getCheckoutView, type CheckoutView } from './get-checkout-view';

export interface CheckoutPollSettings {
  /** Polls one client address (IPv6: its /64) may make per minute, all invoices together. */
  perAddressPerMinute: number;
  /** How long a built view (or an unknown id) is reused for every poll of that invoice. */
  cacheMs: number;
}

const overrideKey = Symbol.for('gateway.checkoutPollOverride');
type G = typeof globalThis & { [overrideKey]?: Partial<CheckoutPollSettings> };
const g = globalThis as G;

/** Tests: change the allowance or the cache's TTL; undefined restores the environment. */
export function setCheckoutPollOverride(o: Partial<CheckoutPollSettings> | undefined): void {
  g[overrideKey] = o;
}

function settings(): CheckoutPollSettings {
  const e = env();
  return { perAddressPerMinute: e.CHECKOUT_STATUS_PER_ADDRESS_PER_MINUTE, cacheMs: e.CHECKOUT_STATUS_CACHE_MS, ...g[overrideKey] };
}

const limit = addressWindowLimit();
const cache = new Map<string, { at: number; view: CheckoutView | null }>();
const MAX_CACHED = 10_000;

/**
 * One poll of the public checkout status (GET /api/pay/:id/status): refused past the address's
 * per-minute allowance (checked first, in memory, so a flood never reaches the database), else the
 * invoice's view, reused for `cacheMs` by every poller of that invoice (the page polls every 2 s; a
 * view a second old is as good, and a thousand pollers of one invoice cost one read per TTL).
 * Unknown ids are cached too: scanning for invoices costs the same. The view is the unmasked one, shared by
 * every poller; the route presents it to each request (presentCheckout: the claim token decides what is shown).
 */
export async function pollCheckout(
  db: Db,
  invoiceId: string,
  clientAddress: string,
  now = Date.now(),
): Promise<{ retryAfter: number } | { view: CheckoutView | null }> {
  const s = settings();
  const retryAfter = limit.take(clientAddress, s.perAddressPerMinute, now);
  if (retryAfter !== null) return { retryAfter };
  const hit = cache.get(invoiceId);
  if (hit && now - hit.at < s.cacheMs) return { view: hit.view };
  const view = await getCheckoutView(db, invoiceId);
  if (s.cacheMs > 0) {
    // Oldest first: Map keeps insertion order, and a refreshed entry is re-inserted at the end.
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.delete(invoiceId);
    cache.set(invoiceId, { at: now, view });
  }
  return { view };
}
