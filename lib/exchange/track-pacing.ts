/**
 * How the order tracker spreads its weight and splits it between moving and
 * waiting orders. Pure, so the rules are unit-tested without an exchange.
 */

export interface Pacer {
  /** Takes up to `max` whole tokens (polls) now. */
  take(max: number, now?: number): number;
  /** Gives back tokens taken but not spent (the shared budget refused them). */
  refund(n: number): void;
  /** Milliseconds until `n` tokens are available. */
  msUntil(n: number, now?: number): number;
  readonly perMs: number;
  readonly burst: number;
}

/**
 * A token bucket: `perMs` tokens a millisecond, at most `burst` saved up.
 * The shared window alone lets the tracker spend its whole ceiling in one
 * second and then nothing for a minute (and, once saturated, the spends keep
 * that shape: each burst leaves the window together and is taken again
 * together), so an order that comes due in the gap waits up to a minute. Paced
 * at ceiling / window, the weight arrives a little at a time and an order that
 * comes due is polled within a second or so.
 */
export function createPacer(opts: { perMs: number; burst: number; now?: number }): Pacer {
  const { perMs } = opts;
  const burst = Math.max(1, opts.burst);
  let tokens = burst;
  let at = opts.now ?? Date.now();
  const refill = (now: number) => {
    if (now > at) tokens = Math.min(burst, tokens + (now - at) * perMs);
    at = Math.max(at, now);
  };
  return {
    perMs,
    burst,
    take(max, now = Date.now()) {
      refill(now);
      const n = Math.max(0, Math.min(Math.floor(max), Math.floor(tokens)));
      tokens -= n;
      return n;
    },
    refund(n) {
      tokens = Math.min(burst, tokens + Math.max(0, n));
    },
    msUntil(n, now = Date.now()) {
      refill(now);
      return tokens >= n ? 0 : Math.ceil((n - tokens) / perMs);
    },
  };
}

/** The pacer may save up this long's worth of polls (passes late by a moment, or a few orders falling due together). */
export const BURST_MS = 2_000;

/**
 * The tracker's pace for `ceiling` weight per counted window: a burst plus a
 * whole window of refill never passes the ceiling, so pacing alone keeps the
 * tracker within it and the shared window only refuses it when other calls
 * (creates, tenants' reads) took room. About 143 a minute for a ceiling of 150.
 */
export function trackerPace(ceiling: number, countedWindowMs: number): { perMs: number; burst: number } {
  const perMs = ceiling / (countedWindowMs + BURST_MS);
  return { perMs, burst: Math.max(1, Math.floor(perMs * BURST_MS)) };
}

/** Of the polls made while waiting orders are due too, at least this share goes to them. */
export const WAITING_SHARE = 0.2;

/**
 * Picks up to `n` orders to poll: moving ones first (they are about to
 * finish), but while waiting orders are due as well every fifth poll goes to
 * the longest-overdue waiting one, so a crowd of moving orders cannot starve
 * them (EXPIRED, late deposits and EMERGENCY are still noticed). Both lists
 * come ordered (moving: nearest to finishing first, then longest overdue;
 * waiting: longest overdue first, i.e. round-robin). `credit` carries the
 * waiting share from one pass to the next (passes often poll one or two).
 */
export function pickBatch<T>(moving: T[], waiting: T[], n: number, credit: number): { batch: T[]; credit: number } {
  const batch: T[] = [];
  let m = 0;
  let w = 0;
  const share = WAITING_SHARE / (1 - WAITING_SHARE);
  while (batch.length < n && (m < moving.length || w < waiting.length)) {
    const movingLeft = m < moving.length;
    const waitingLeft = w < waiting.length;
    if (waitingLeft && (!movingLeft || credit >= 1)) {
      batch.push(waiting[w++]!);
      if (movingLeft) credit -= 1;
    } else {
      batch.push(moving[m++]!);
      if (waitingLeft) credit += share;
    }
  }
  return { batch, credit: Math.min(1, Math.max(0, credit)) };
}
