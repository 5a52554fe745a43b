import { env } from '@/lib/env';

/** Delay before attempt n+1 after attempt n (index n-1): the spec's table, 30 s to 6 h. Attempt 1 is immediate. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 300_000, 900_000, 3_600_000, 10_800_000, 21_600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * When attempt `attemptNumber + 1` is due after attempt `attemptNumber`
 * (started at `startedAt`) failed, or null when it was the 8th (dead letter).
 * A Retry-After longer than the step postpones it (capped at the longest
 * step); a shorter one is ignored.
 */
export function nextAttemptAt(attemptNumber: number, startedAt: Date, retryAfterMs?: number | null, scale = env().WEBHOOK_RETRY_SCALE): Date | null {
  if (attemptNumber >= MAX_ATTEMPTS) return null;
  const step = RETRY_DELAYS_MS[attemptNumber - 1]! * scale;
  const longest = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1]! * scale;
  const delay = retryAfterMs && retryAfterMs > step ? Math.min(retryAfterMs, longest) : step;
  return new Date(startedAt.getTime() + delay);
}

/** Retry-After as delta-seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
