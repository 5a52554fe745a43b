import { inArray, sql } from 'drizzle-orm';
import { loginThrottles } from '@/db/schema';
import type { Db } from '@/lib/db';

/**
 * Brute-force slowing. Each key (account, client address) gets `free`
 * failures per 15-minute window; every failure beyond that locks the key for
 * an exponentially growing time (30 s, 1 min, 2 min, ... capped at 15 minutes). A locked
 * key is refused before the password is even checked.
 */
const WINDOW_MS = 15 * 60_000;
const MAX_LOCK_MS = 15 * 60_000;
export const THROTTLE_FREE = { acct: 5, ip: 30 } as const;

export function throttleKeys(email: string, ip: string) {
  return { acct: `acct:${email.toLowerCase()}`, ip: `ip:${ip}` };
}

/** Seconds until the first of the keys unlocks, or 0 when none is locked. */
export async function lockedForSeconds(db: Db, keys: string[], now = new Date()): Promise<number> {
  const rows = await db.select().from(loginThrottles).where(inArray(loginThrottles.key, keys));
  const waits = rows.map((r) => (r.lockedUntil ? r.lockedUntil.getTime() - now.getTime() : 0));
  return Math.max(0, Math.ceil(Math.max(0, ...waits) / 1000));
}

export async function recordFailure(db: Db, key: string, free: number, now = new Date()): Promise<void> {
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  const [row] = await db
    .insert(loginThrottles)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: loginThrottles.key,
      set: {
        // Instants as ISO text with a cast: raw sql parameters reach the driver untyped.
        failures: sql`case when ${loginThrottles.windowStartedAt} < ${windowStart.toISOString()}::timestamptz then 1 else ${loginThrottles.failures} + 1 end`,
        windowStartedAt: sql`case when ${loginThrottles.windowStartedAt} < ${windowStart.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else ${loginThrottles.windowStartedAt} end`,
      },
    })
    .returning();
  const over = row!.failures - free;
  if (over > 0) {
    const lockMs = Math.min(MAX_LOCK_MS, 2 ** (over - 1) * 30_000);
    await db
      .update(loginThrottles)
      .set({ lockedUntil: new Date(now.getTime() + lockMs), windowStartedAt: now })
      .where(sql`${loginThrottles.key} = ${key}`);
  }
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottles).where(sql`${loginThrottles.key} = ${key}`);
}
