import { env } from '@/lib/env';
import { getExchangeConfig } from '@/lib/exchange/config';
import type { Mode } from '@/lib/mode';

export interface FiatRateConfig {
  /** GET answers `{ source, rates: { EUR: "1.08", ... }, at }`, USDT per unit; null: no source configured. */
  url: string | null;
  /** A second source: both must answer a currency and agree within maxMovePercent; null: one source. */
  secondUrl: string | null;
  /** Most a fetched rate may differ from the last good one (and the two sources from each other), in percent. */
  maxMovePercent: number;
  /** A last-good rate older than this is not used for a new invoice. */
  maxAgeMs: number;
  /** A rate younger than this is reused without asking the source. */
  refreshMs: number;
  /** After a failed fetch the source is not asked again for this long (the last-good rate is used). */
  retryAfterFailureMs: number;
}

const overrideKey = Symbol.for('gateway.fiatRateOverrides');
type G = typeof globalThis & { [overrideKey]?: Partial<Record<Mode, Partial<FiatRateConfig>>> };
const g = globalThis as G;

/** Tests point a mode at a source or shorten its limits; undefined restores the environment. */
export function setFiatRateOverride(mode: Mode, config: Partial<FiatRateConfig> | undefined): void {
  g[overrideKey] ??= {};
  if (config === undefined) delete g[overrideKey]![mode];
  else g[overrideKey]![mode] = config;
}

/**
 * FIAT_RATES_URL when set (production: a fiat rate feed), else the mode's
 * exchange + /rates/fiat: FixedFloat's API has no fiat rates, so that default
 * only works against the local exchange simulator.
 */
export function getFiatRateConfig(mode: Mode): FiatRateConfig {
  const e = env();
  const exchange = getExchangeConfig(mode);
  const base: FiatRateConfig = {
    url: e.FIAT_RATES_URL ?? (exchange ? `${exchange.url}/rates/fiat` : null),
    secondUrl: e.FIAT_RATES_SECOND_URL ?? null,
    maxMovePercent: e.FIAT_RATE_MAX_MOVE_PERCENT,
    maxAgeMs: e.FIAT_RATE_MAX_AGE_SECONDS * 1000,
    refreshMs: e.FIAT_RATE_REFRESH_SECONDS * 1000,
    retryAfterFailureMs: 10_000,
  };
  return { ...base, ...g[overrideKey]?.[mode] };
}
