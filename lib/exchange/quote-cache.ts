/**
 * Identical price quotes for a few seconds, per process: a tenant polling one
 * quote in a loop costs the shared budget one weight per TTL, not one per
 * request. Only answers are kept: a failure is never cached, so it can never
 * come back as a quote.
 */
const MAX_ENTRIES = 5_000;
const cache = new Map<string, { until: number; value: unknown }>();

export async function cachedQuote<T>(key: string, ttlMs: number, fetchQuote: () => Promise<T>): Promise<T> {
  if (ttlMs <= 0) return fetchQuote();
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return structuredClone(hit.value) as T;
  const value = await fetchQuote();
  if (cache.size >= MAX_ENTRIES) {
    for (const [k, v] of cache) if (v.until <= now) cache.delete(k);
    // Still full of live entries (a flood of distinct quotes): drop the oldest rather than grow.
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, { until: Date.now() + ttlMs, value: structuredClone(value) });
  return value;
}

/** Tests: forget cached quotes. */
export function clearQuoteCache(): void {
  cache.clear();
}
