import type { RetryLater } from '@/lib/api/errors';

/** The key's API rate-limit state at the refusal, for the X-RateLimit headers of its repeats. */
export interface LimitState {
  limit: number;
  remaining: number;
  /** Epoch seconds at which the window ends. */
  reset: number;
}

interface Held {
  refusal: RetryLater;
  /** The refusal could only change once its Retry-After time had passed. */
  until: number;
  rateLimit?: LimitState;
}

const MAX_ENTRIES = 10_000;

/**
 * Keys told to come back later, per app instance and in memory: once a key
 * gets a RetryLater refusal (its API rate limit, its tenant's share of the
 * exchange budget), its further requests to the same operation (every
 * operation, for the rate limit) get the same refusal without the
 * authentication statement until the Retry-After time. A flood of refused
 * requests then costs microseconds each, not a database round trip and the
 * CPU other tenants' requests need.
 *
 * Only refusals are remembered, never an authentication: nothing is let
 * through on the memo's word. A key revoked meanwhile is still refused (429
 * rather than 401) and reaches the lookup once its time is up.
 */
export class RefusalMemo {
  private readonly entries = new Map<string, Held>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The refusal still holding for this key hash and operation, re-dated (Retry-After counts down), with the
   * key's rate-limit state now (repeats answered here are not counted, so only a new window changes it); or null.
   */
  check(keyHash: string | undefined, opId: string): { refusal: RetryLater; rateLimit?: LimitState } | null {
    if (!keyHash || this.entries.size === 0) return null;
    const now = this.now();
    for (const k of [keyHash, `${keyHash}:${opId}`]) {
      const e = this.entries.get(k);
      if (!e) continue;
      if (e.until <= now) {
        this.entries.delete(k);
        continue;
      }
      const refusal = e.refusal.redated(Math.max(1, Math.ceil((e.until - now) / 1000)));
      const rl = e.rateLimit;
      if (!rl || now / 1000 < rl.reset) return { refusal, rateLimit: rl };
      const windows = Math.ceil((now / 1000 - rl.reset) / 60) || 1;
      return { refusal, rateLimit: { limit: rl.limit, remaining: rl.limit, reset: rl.reset + windows * 60 } };
    }
    return null;
  }

  /** Remembers `refusal` for the key (the whole key when `wholeKey`, else this operation) until its Retry-After. */
  remember(keyHash: string | undefined, opId: string, refusal: RetryLater, opts: { wholeKey?: boolean; rateLimit?: LimitState } = {}): void {
    if (!keyHash) return;
    const now = this.now();
    if (this.entries.size >= MAX_ENTRIES) {
      for (const [k, e] of this.entries) if (e.until <= now) this.entries.delete(k);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(opts.wholeKey ? keyHash : `${keyHash}:${opId}`, {
      until: now + refusal.retryAfter * 1000,
      refusal,
      rateLimit: opts.rateLimit && { limit: opts.rateLimit.limit, remaining: opts.rateLimit.remaining, reset: opts.rateLimit.reset },
    });
  }
}

let instance: RefusalMemo | undefined;
export function refusalMemo(): RefusalMemo {
  return (instance ??= new RefusalMemo());
}
