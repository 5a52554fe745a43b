import { env } from '@/lib/env';

/**
 * At most a quarter of the database pool (at least 1) runs throttle statements
 * at once in this process; further attempts wait here, holding no connection.
 * A burst of attempts on one account serialises on that account's row lock,
 * and each waiter would otherwise hold a pooled connection meanwhile: fifty
 * concurrent sign-ins took the whole pool and other tenants' /v1 requests
 * waited behind them (bench/abuse/login-race.ts).
 */
type Gate = { free: number; waiting: (() => void)[] };
const key = Symbol.for('gateway.throttleSlots');
type G = typeof globalThis & { [key]?: Gate };

export async function withThrottleSlot<T>(fn: () => Promise<T>): Promise<T> {
  const g = globalThis as G;
  const gate = (g[key] ??= { free: Math.max(1, Math.floor(env().DB_POOL_MAX / 4)), waiting: [] });
  if (gate.free > 0) gate.free--;
  else await new Promise<void>((resolve) => gate.waiting.push(resolve));
  try {
    return await fn();
  } finally {
    // The slot passes straight to the next waiter, or back to the pool.
    const next = gate.waiting.shift();
    if (next) next();
    else gate.free++;
  }
}
