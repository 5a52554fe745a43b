import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { ExchangeBusyError, TenantShareExceededError } from './errors';
import { roomFor, shareLeft, whenFits, type ShareLimits, type Spend } from './fair-share';
import { exchangeRateBlocks, exchangeWeightSpends } from '@/db/schema';
import type { RawRow } from '@/lib/db/raw-row';

export interface BudgetLimits {
  /** Weight per window (250). */
  limit: number;
  windowMs: number;
  /** System callers: spend only while the window would hold at most this much (the tracker leaves room for creates). */
  ceiling?: number;
  /** The tenant the weight is spent for; null or absent: system work. */
  tenantId?: string | null;
  /** Fair shares (fair-share.ts); defaults: 60 % of the limit per tenant, 10 % kept for system work. */
  tenantShare?: number;
  systemReserve?: number;
}

/**
 * Our reservation precedes the request's arrival at the exchange: counting
 * over a slightly longer window keeps every exchange-side window within the
 * limit even when requests are delayed in flight.
 */
const marginMs = (windowMs: number) => Math.min(1000, windowMs * 0.1);

/** The window our reservations are counted over: the exchange's plus the margin. */
export const countedWindowMs = (windowMs: number) => windowMs + marginMs(windowMs);

export const shareLimits = (l: Pick<BudgetLimits, 'limit' | 'tenantShare' | 'systemReserve'>): ShareLimits => ({
  limit: l.limit,
  tenantShare: Math.min(l.limit, l.tenantShare ?? Math.floor(l.limit * 0.6)),
  systemReserve: l.systemReserve ?? Math.floor(l.limit * 0.1),
});

export interface Attempt {
  granted: number;
  /** When to try again if nothing (or not enough) was granted. */
  retryAt: Date | null;
  /** The tenant is past its fair share: it must come back at retryAt, not queue. */
  overShare?: boolean;
}

/**
 * One atomic look at the key's window (all processes serialise on an
 * advisory lock per key): grants between `min` and `max` weight if the
 * caller's room (fair-share.ts) allows and no 429 block is running.
 */
async function attempt(db: Db, keyHash: string, min: number, max: number, l: BudgetLimits): Promise<Attempt> {
  const windowSecs = countedWindowMs(l.windowMs) / 1000;
  const limits = shareLimits(l);
  const caller = { tenantId: l.tenantId ?? null, ceiling: l.ceiling };
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`exchange-weight:${keyHash}`}))`);
    const [block] = rowsOf<RawRow<typeof exchangeRateBlocks, { blockedUntil: string | Date }> & { now: string | Date }>(
      await tx.execute(sql`select blocked_until, clock_timestamp() as now from exchange_rate_blocks
                            where key_hash = ${keyHash} and blocked_until > clock_timestamp()`),
    );
    if (block) return { granted: 0, retryAt: new Date(block.blocked_until) };
    await tx.execute(sql`delete from exchange_weight_spends
                          where key_hash = ${keyHash} and spent_at < clock_timestamp() - make_interval(secs => ${windowSecs * 2})`);
    const spends: Spend[] = rowsOf<RawRow<typeof exchangeWeightSpends, { weight: number; tenantId: string | null }> & { until: string | Date }>(
      await tx.execute(sql`select weight, tenant_id, spent_at + make_interval(secs => ${windowSecs}) as until from exchange_weight_spends
                            where key_hash = ${keyHash} and spent_at > clock_timestamp() - make_interval(secs => ${windowSecs})
                            order by spent_at`),
    ).map((r) => ({ weight: Number(r.weight), tenantId: r.tenant_id, until: new Date(r.until).getTime() }));
    if (caller.tenantId !== null && shareLeft(spends, caller.tenantId, limits) < min) {
      const at = whenFits(spends, (rest) => shareLeft(rest, caller.tenantId!, limits) >= min);
      return { granted: 0, retryAt: new Date(at ?? Date.now() + l.windowMs), overShare: true };
    }
    const room = roomFor(spends, caller, limits);
    if (room >= min) {
      const granted = Math.min(max, room);
      await tx.execute(
        sql`insert into exchange_weight_spends (key_hash, tenant_id, weight, spent_at) values (${keyHash}, ${caller.tenantId}, ${granted}, clock_timestamp())`,
      );
      return { granted, retryAt: null };
    }
    // Enough room for `min` once the oldest spends leave the window.
    const at = whenFits(spends, (rest) => roomFor(rest, caller, limits) >= min);
    return { granted: 0, retryAt: new Date(at ?? Date.now() + l.windowMs) };
  });
}

/**
 * Tenants this process found past their share, until their own spends leave
 * the window: a flooding tenant is refused without taking the key's lock,
 * which every other tenant's reservation needs. (Its share can only grow
 * meanwhile if other tenants stop spending: the refusal errs on the side of the others.)
 */
const overShareUntil = new Map<string, number>();

/**
 * Reserves `weight` for one request, waiting (queueing) while the window is
 * full or a 429 block runs. Throws ExchangeBusyError when the wait would pass
 * `maxWaitMs`, and TenantShareExceededError at once when the tenant is past its fair share.
 */
export async function reserveWeight(db: Db, keyHash: string, weight: number, l: BudgetLimits & { maxWaitMs: number }): Promise<void> {
  const deadline = Date.now() + l.maxWaitMs;
  const memo = l.tenantId ? `${keyHash}:${l.tenantId}:${weight}` : null;
  const known = memo ? overShareUntil.get(memo) : undefined;
  if (known !== undefined && known > Date.now()) throw new TenantShareExceededError(new Date(known));
  for (;;) {
    const a = await attempt(db, keyHash, weight, weight, l);
    if (a.granted > 0) return;
    const retryAt = a.retryAt!;
    if (a.overShare) {
      if (overShareUntil.size > 10_000) overShareUntil.clear();
      overShareUntil.set(memo!, retryAt.getTime());
      throw new TenantShareExceededError(retryAt);
    }
    if (retryAt.getTime() > deadline) throw new ExchangeBusyError(retryAt);
    // A little jitter so queued processes do not all wake on the same millisecond.
    await new Promise((r) => setTimeout(r, Math.max(5, retryAt.getTime() - Date.now()) + Math.random() * 20));
  }
}

/**
 * Takes what is free now, up to `max` (the tracker: never waits). With
 * nothing granted, `retryAt` says when one unit will be free (the window or a 429 block).
 */
export async function takeAvailableWeight(db: Db, keyHash: string, max: number, l: BudgetLimits): Promise<Attempt> {
  if (max <= 0) return { granted: 0, retryAt: null };
  return attempt(db, keyHash, 1, max, l);
}

/**
 * Records a 429: every process waits until the block ends. Without a
 * Retry-After the back-off doubles with each violation in a row (from
 * `baseMs`, at most 10 minutes); a quiet spell of ten windows resets it.
 */
export async function recordRateLimited(db: Db, keyHash: string, opts: { retryAfterMs?: number; baseMs: number; windowMs: number }): Promise<Date> {
  const [row] = rowsOf<RawRow<typeof exchangeRateBlocks, { blockedUntil: string | Date }>>(
    await db.execute(sql`
      insert into exchange_rate_blocks as b (key_hash, blocked_until, violations, updated_at)
      values (${keyHash}, clock_timestamp() + make_interval(secs => ${(opts.retryAfterMs ?? opts.baseMs) / 1000}), 1, clock_timestamp())
      on conflict (key_hash) do update set
        violations = case when b.updated_at < clock_timestamp() - make_interval(secs => ${(opts.windowMs * 10) / 1000}) then 1 else b.violations + 1 end,
        blocked_until = greatest(b.blocked_until, clock_timestamp() + make_interval(secs => ${
          opts.retryAfterMs !== undefined ? opts.retryAfterMs / 1000 : sql`least(600, ${opts.baseMs / 1000} * power(2, least(b.violations, 12)))`
        })),
        updated_at = clock_timestamp()
      returning blocked_until`),
  );
  return new Date(row!.blocked_until);
}
