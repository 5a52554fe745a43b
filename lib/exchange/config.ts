import { createHash } from 'node:crypto';
import { env } from '@/lib/env';
import type { Mode } from '@/lib/mode';

export interface ExchangeConfig {
  url: string;
  apiKey: string;
  apiSecret: string;
  weightLimit: number;
  windowMs: number;
  /** The tracker spends weight only up to this much per window. */
  trackCeiling: number;
  /** Most weight one tenant may hold in a window (default 60 % of the limit). */
  tenantShare?: number;
  /** Weight per window that tenants together leave for system work (default 10 % of the limit). */
  systemReserve?: number;
  /** Identical quotes are served from a cache this long (default 3 s; 0: off). */
  quoteCacheMs?: number;
}

const overrideKey = Symbol.for('gateway.exchangeOverrides');
type G = typeof globalThis & { [overrideKey]?: Partial<Record<Mode, ExchangeConfig | null>> };
const g = globalThis as G;

/** Tests and benches point a mode at their simulator (null: no exchange); undefined restores the environment. */
export function setExchangeOverride(mode: Mode, config: ExchangeConfig | null | undefined): void {
  g[overrideKey] ??= {};
  if (config === undefined) delete g[overrideKey]![mode];
  else g[overrideKey]![mode] = config;
}

/**
 * The exchange a mode talks to, or null when its credentials are not set.
 * Live mode: EXCHANGE_*. Test mode: TEST_EXCHANGE_*, else (outside
 * production only) EXCHANGE_*, so test keys never reach a real exchange in production.
 */
export function getExchangeConfig(mode: Mode): ExchangeConfig | null {
  const o = g[overrideKey];
  if (o && mode in o) return o[mode] ?? null;
  const e = env();
  const common = {
    weightLimit: e.EXCHANGE_WEIGHT_LIMIT,
    windowMs: e.EXCHANGE_WEIGHT_WINDOW_SECONDS * 1000,
    trackCeiling: e.EXCHANGE_TRACK_CEILING,
    tenantShare: e.EXCHANGE_TENANT_WEIGHT_SHARE,
    systemReserve: e.EXCHANGE_SYSTEM_RESERVE,
    quoteCacheMs: e.EXCHANGE_QUOTE_CACHE_SECONDS * 1000,
  };
  const own = mode === 'test' ? [e.TEST_EXCHANGE_URL, e.TEST_EXCHANGE_API_KEY, e.TEST_EXCHANGE_API_SECRET] : [undefined, undefined, undefined];
  const useOwn = own.every(Boolean);
  if (mode === 'test' && !useOwn && e.APP_ENV === 'production') return null;
  const [url, apiKey, apiSecret] = useOwn ? own : [e.EXCHANGE_URL, e.EXCHANGE_API_KEY, e.EXCHANGE_API_SECRET];
  if (!url || !apiKey || !apiSecret) return null;
  return { url: url.replace(/\/+$/, ''), apiKey, apiSecret, ...common };
}

/** The budget is kept per exchange API key; rows name it by hash, never by value. */
export function keyHashOf(config: Pick<ExchangeConfig, 'apiKey'>): string {
  let hash = keyHashes.get(config.apiKey);
  if (hash === undefined) {
    hash = createHash('sha256').update(config.apiKey).digest('hex').slice(0, 32);
    // Keys come from configuration (a handful per process), so this never grows past a few entries.
    if (keyHashes.size > 100) keyHashes.clear();
    keyHashes.set(config.apiKey, hash);
  }
  return hash;
}
/** Per request the same key is hashed again otherwise (every quote builds a client). */
const keyHashes = new Map<string, string>();
