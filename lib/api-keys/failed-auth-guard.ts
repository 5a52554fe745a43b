import { ApiError } from '@/lib/api/errors';
import { KEY_FORMAT, hashKeySecret } from './secret';

/**
 * First line against key guessing and floods of bad keys, per app instance and
 * in memory (a check costs microseconds and no database round trip, which is
 * the point: a flood must not take database time from good keys).
 *
 * An address that fails authentication FAILURE_LIMIT times within WINDOW_MS is
 * blocked for BLOCK_MS: its requests get 429 `too_many_failed_auth` before
 * any lookup, except requests carrying a key that authenticated recently on
 * this instance, so a merchant's working key keeps working next to a broken one
 * on the same server. The recent-good set only lets a request reach the normal
 * lookup; it never authenticates anything by itself (revocation still applies
 * on the next request).
 *
 * A blocked request is answered after TARPIT_MS rather than at once: a client
 * that waits for each answer (as every HTTP client on a keep-alive connection
 * does) then sends at most one request per connection per TARPIT_MS, so a
 * flood stops costing CPU that good keys need. At most MAX_TARPITTED requests
 * are held at a time; beyond that they are answered at once.
 */
export const FAILURE_LIMIT = 30;
export const WINDOW_MS = 10_000;
export const BLOCK_MS = 30_000;
const MAX_TRACKED = 50_000;
export const TARPIT_MS = 1_000;
const MAX_TARPITTED = 2_000;
const GOOD_TTL_MS = 10 * 60_000;

interface AddressState {
  windowStart: number;
  failures: number;
  blockedUntil: number;
}

export class FailedAuthGuard {
  private readonly addresses = new Map<string, AddressState>();
  private readonly recentlyGood = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  private tarpitted = 0;

  /** True when `address` is blocked and the presented key has not authenticated recently here. */
  blocks(address: string, authorization: string | null): boolean {
    const state = this.addresses.get(address);
    if (!state || state.blockedUntil <= this.now()) return false;
    const hash = keyHashOf(authorization);
    const goodUntil = hash ? this.recentlyGood.get(hash) : undefined;
    return goodUntil === undefined || goodUntil <= this.now();
  }

  /** Rejects a blocked request with 429 after the tarpit delay; returns at once for everything else. */
  async check(address: string, authorization: string | null, delayMs = TARPIT_MS): Promise<void> {
    if (!this.blocks(address, authorization)) return;
    if (delayMs > 0 && this.tarpitted < MAX_TARPITTED) {
      this.tarpitted += 1;
      await new Promise((resolve) => setTimeout(resolve, delayMs)).finally(() => (this.tarpitted -= 1));
    }
    const state = this.addresses.get(address);
    const retryAfter = Math.max(1, Math.ceil(((state?.blockedUntil ?? this.now()) - this.now()) / 1000));
    throw new ApiError(
      'too_many_failed_auth',
      `Too many requests with invalid API keys from this address. Retry in ${retryAfter} seconds.`,
      undefined,
      { 'Retry-After': String(retryAfter) },
    );
  }

  failed(address: string): void {
    const now = this.now();
    let state = this.addresses.get(address);
    if (!state || now - state.windowStart >= WINDOW_MS) {
      if (!state) this.evictIfFull(this.addresses, now, (s) => s.blockedUntil <= now && now - s.windowStart >= WINDOW_MS);
      state = { windowStart: now, failures: 0, blockedUntil: state?.blockedUntil ?? 0 };
      this.addresses.set(address, state);
    }
    state.failures += 1;
    if (state.failures >= FAILURE_LIMIT) state.blockedUntil = Math.max(state.blockedUntil, now + BLOCK_MS);
  }

  succeeded(authorization: string | null): void {
    const hash = keyHashOf(authorization);
    if (!hash) return;
    const now = this.now();
    if (!this.recentlyGood.has(hash)) this.evictIfFull(this.recentlyGood, now, (until) => until <= now);
    this.recentlyGood.set(hash, now + GOOD_TTL_MS);
  }

  /** Memory stays bounded under a flood from many addresses: expired entries go first, then the oldest. */
  private evictIfFull<V>(map: Map<string, V>, now: number, expired: (v: V) => boolean) {
    if (map.size < MAX_TRACKED) return;
    for (const [k, v] of map) if (expired(v)) map.delete(k);
    if (map.size >= MAX_TRACKED) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
  }
}

function keyHashOf(authorization: string | null): string | undefined {
  const secret = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return secret && KEY_FORMAT.test(secret) ? hashKeySecret(secret) : undefined;
}

let instance: FailedAuthGuard | undefined;
export function failedAuthGuard(): FailedAuthGuard {
  return (instance ??= new FailedAuthGuard());
}
