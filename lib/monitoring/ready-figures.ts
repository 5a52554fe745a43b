import { env } from '@/lib/env';
import { addressWindowLimit } from '@/lib/http/address-window-limit';
import { readiness, type Readiness } from './readiness';

export interface ReadySettings {
  /** Anonymous /api/ready requests one client address (IPv6: its /64) may make per minute, per process. */
  perAddressPerMinute: number;
  /** How long one round of reads (database, every node of both modes) answers every caller, per process. */
  cacheMs: number;
}

const overrideKey = Symbol.for('gateway.readyOverride');
const stateKey = Symbol.for('gateway.readyState');
type State = { at: number; figures: Readiness | null; inflight: Promise<Readiness> | null; limit: ReturnType<typeof addressWindowLimit> };
type G = typeof globalThis & { [overrideKey]?: Partial<ReadySettings>; [stateKey]?: State };
const g = globalThis as G;
const state = (): State => (g[stateKey] ??= { at: 0, figures: null, inflight: null, limit: addressWindowLimit() });

/** Tests: change the allowance or the TTL; undefined restores the environment. */
export function setReadyOverride(o: Partial<ReadySettings> | undefined): void {
  g[overrideKey] = o;
}

/** Tests: forget the cached figures and the per-address counts, so the next request reads afresh. */
export function resetReadyCache(): void {
  delete g[stateKey];
}

function settings(): ReadySettings {
  const e = env();
  return { perAddressPerMinute: e.READY_PER_ADDRESS_PER_MINUTE, cacheMs: e.READY_CACHE_MS, ...g[overrideKey] };
}

/**
 * The readiness figures for GET /api/ready. Each answer costs a database query and a head read of every
 * enabled node of both modes, and the route is public (probes carry no credentials): an anonymous caller
 * past its per-minute allowance is refused first, in memory; everyone else gets figures at most `cacheMs`
 * old, and callers that arrive while a read is under way wait for that same read (single flight), so a
 * flood costs the providers one round of reads per TTL per process. `trusted` (the operator token) skips
 * the allowance, not the cache.
 */
export async function readyFigures(
  clientAddress: string,
  trusted: boolean,
  now = Date.now(),
): Promise<{ retryAfter: number } | { figures: Readiness }> {
  const s = settings();
  const st = state();
  if (!trusted) {
    const retryAfter = st.limit.take(clientAddress, s.perAddressPerMinute, now);
    if (retryAfter !== null) return { retryAfter };
  }
  if (st.figures && now - st.at < s.cacheMs) return { figures: st.figures };
  st.inflight ??= readiness()
    .then((figures) => {
      // Stamped when the read ends: a slow round (timeouts, 3 s) is not already stale when it lands.
      if (s.cacheMs > 0) Object.assign(st, { figures, at: Date.now() });
      return figures;
    })
    .finally(() => {
      st.inflight = null;
    });
  return { figures: await st.inflight };
}
