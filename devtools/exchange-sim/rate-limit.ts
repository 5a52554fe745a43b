export interface LimitOptions {
  /** Weight units per window (FixedFloat: 250 per minute). */
  limit: number;
  windowMs: number;
  /** First block after a violation; each repeated violation doubles it. */
  blockMs: number;
}

interface KeyState {
  spends: { t: number; w: number }[];
  violations: number;
  blockedUntil: number;
  lastViolationAt: number;
}

/**
 * The exchange's weight limit per API key: a sliding window of accepted
 * weight; a request that would pass the limit is refused with 429 and starts
 * a block that grows with each repeated violation (calls during a block are
 * refused too and count as violations). A quiet period of ten windows forgives.
 */
export function createRateLimiter(opts: LimitOptions) {
  const keys = new Map<string, KeyState>();
  /** Every accepted request, for tests and the bench to check the budget was kept. */
  const log: { key: string; t: number; w: number }[] = [];
  let rejected = 0;

  function admit(key: string, weight: number, now = Date.now()): { ok: true } | { ok: false; retryInMs: number } {
    let s = keys.get(key);
    if (!s) keys.set(key, (s = { spends: [], violations: 0, blockedUntil: 0, lastViolationAt: 0 }));
    if (s.violations > 0 && now - s.lastViolationAt > opts.windowMs * 10) s.violations = 0;
    s.spends = s.spends.filter((x) => x.t > now - opts.windowMs);
    const used = s.spends.reduce((a, x) => a + x.w, 0);
    if (now < s.blockedUntil || used + weight > opts.limit) {
      s.violations++;
      s.lastViolationAt = now;
      s.blockedUntil = Math.max(s.blockedUntil, now + opts.blockMs * 2 ** Math.min(s.violations - 1, 10));
      rejected++;
      return { ok: false, retryInMs: s.blockedUntil - now };
    }
    s.spends.push({ t: now, w: weight });
    log.push({ key, t: now, w: weight });
    return { ok: true };
  }

  /** Largest weight accepted for a key within any window-long interval. */
  function maxWindowWeight(key?: string, windowMs = opts.windowMs): number {
    const xs = log.filter((x) => key === undefined || x.key === key);
    let best = 0;
    let sum = 0;
    let j = 0;
    for (let i = 0; i < xs.length; i++) {
      sum += xs[i]!.w;
      while (xs[i]!.t - xs[j]!.t >= windowMs) sum -= xs[j++]!.w;
      best = Math.max(best, sum);
    }
    return best;
  }

  return {
    admit,
    log,
    maxWindowWeight,
    stats: () => ({ accepted: log.length, rejected, violations: Object.fromEntries([...keys].map(([k, s]) => [k.slice(0, 6), s.violations])) }),
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
