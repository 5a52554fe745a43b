import { and, eq, sql } from 'drizzle-orm';
import { fiatRates } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import { getFiatRateConfig, type FiatRateConfig } from './config';
import { fetchFiatRates, type FiatRate } from './fetch-fiat-rates';
import { vetRates } from './vet-rates';

/** Per process: the newest rate seen per mode and currency, and when the source may be asked again. */
const memory = new Map<string, FiatRate>();
const pausedUntil = new Map<Mode, number>();
const inflight = new Map<Mode, Promise<Map<string, string>>>();

/** Tests: forget the in-process rates and failure pauses. */
export function clearFiatRateCache(): void {
  memory.clear();
  pausedUntil.clear();
}

/** The newest good rate per currency of a mode: this process's, or the database's from any process. */
async function lastGoodRates(db: Db, mode: Mode): Promise<Map<string, FiatRate>> {
  const out = new Map<string, FiatRate>();
  for (const r of await db.select().from(fiatRates).where(eq(fiatRates.mode, mode))) out.set(r.currency, r);
  for (const [key, r] of memory) {
    const held = out.get(r.currency);
    if (key.startsWith(`${mode}:`) && (!held || held.fetchedAt < r.fetchedAt)) out.set(r.currency, r);
  }
  return out;
}

/** Asks the source (both, when two are configured) and keeps the rates that pass vetRates; returns why the others did not. */
async function refresh(db: Db, mode: Mode, cfg: FiatRateConfig, now: Date): Promise<Map<string, string>> {
  const answers = await Promise.all([cfg.url!, ...(cfg.secondUrl ? [cfg.secondUrl] : [])].map((url) => fetchFiatRates(url, now)));
  const { accepted, refused } = vetRates(answers, await lastGoodRates(db, mode), cfg, now);
  if (accepted.length === 0 && refused.size === 0) throw new Error('fiat rate source answered no known currency');
  for (const [currency, why] of refused) log.warn('fiat rate not used', { mode, currency, why });
  for (const r of accepted) memory.set(`${mode}:${r.currency}`, r);
  // The last good rates outlive this process and serve the other processes when the source is down.
  if (accepted.length)
    await db
      .insert(fiatRates)
      .values(accepted.map((r) => ({ mode, currency: r.currency, rate: r.rate, source: r.source, fetchedAt: r.fetchedAt })))
      .onConflictDoUpdate({
        target: [fiatRates.mode, fiatRates.currency],
        set: { rate: sql`excluded.rate`, source: sql`excluded.source`, fetchedAt: sql`excluded.fetched_at` },
        setWhere: sql`${fiatRates.fetchedAt} < excluded.fetched_at`,
      });
  return new Map([...refused, ...accepted.map((r) => [r.currency, ''] as const)]);
}

/**
 * The USDT-per-unit rate to lock on a new invoice priced in `currency`. A rate
 * younger than the refresh interval is reused; otherwise the source is asked
 * (one request per process at a time) and its answer vetted (vetRates: a
 * source timestamp, the band around the last good rate, two sources agreeing).
 * When the source fails or its answer is not used, the newest last-good rate
 * (this process's, or the database's from any process) is used while it is
 * younger than the staleness limit; past it, 503 rate_unavailable.
 */
export async function getFiatRate(db: Db, mode: Mode, currency: string, now = new Date()): Promise<FiatRate> {
  const cfg = getFiatRateConfig(mode);
  const key = `${mode}:${currency}`;
  const hit = memory.get(key);
  if (hit && now.getTime() - hit.fetchedAt.getTime() < cfg.refreshMs) return hit;
  let failure = 'no rate source is configured (FIAT_RATES_URL)';
  if (cfg.url && (pausedUntil.get(mode) ?? 0) <= now.getTime()) {
    let p = inflight.get(mode);
    if (!p) {
      p = refresh(db, mode, cfg, now).finally(() => inflight.delete(mode));
      inflight.set(mode, p);
    }
    try {
      const outcome = (await p).get(currency);
      if (outcome === '') {
        pausedUntil.delete(mode);
        return memory.get(key)!;
      }
      failure = outcome ?? `the rate source has no ${currency} rate`;
      // Asked again after the pause, as after a failure: a refused answer is not fetched on every request.
      if (outcome) pausedUntil.set(mode, now.getTime() + cfg.retryAfterFailureMs);
    } catch (err) {
      failure = `the rate source failed: ${(err as Error).message}`;
      pausedUntil.set(mode, now.getTime() + cfg.retryAfterFailureMs);
      log.warn('fiat rate source failed; using the last good rate if fresh enough', { mode, error: (err as Error).message });
    }
  } else if (cfg.url) failure = 'the rate source failed moments ago';
  const [stored] = await db
    .select()
    .from(fiatRates)
    .where(and(eq(fiatRates.mode, mode), eq(fiatRates.currency, currency)));
  const last = [memory.get(key), stored].filter((r): r is FiatRate => !!r).sort((a, b) => b.fetchedAt.getTime() - a.fetchedAt.getTime())[0];
  if (last && now.getTime() - last.fetchedAt.getTime() <= cfg.maxAgeMs) {
    memory.set(key, last);
    return { currency, rate: last.rate, source: last.source, fetchedAt: last.fetchedAt };
  }
  const age = last ? ` (the last good rate is from ${last.fetchedAt.toISOString()})` : '';
  throw new ApiError(
    'rate_unavailable',
    `No ${currency} rate younger than ${Math.round(cfg.maxAgeMs / 1000)} s: ${failure}${age}. Retry later or price the invoice in USDT.`,
    undefined,
    { 'Retry-After': '30' },
  );
}
