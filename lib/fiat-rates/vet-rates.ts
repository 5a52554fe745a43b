import { Decimal } from '@/lib/money';
import type { FiatRate } from './fetch-fiat-rates';

/** Whether two rates are within `percent` of each other (measured on the smaller). */
export function withinBand(a: string, b: string, percent: number): boolean {
  const [x, y] = [new Decimal(a), new Decimal(b)];
  return x.minus(y).abs().div(Decimal.min(x, y)).times(100).lte(percent);
}

const pct = (a: string, b: string) => new Decimal(a).minus(b).abs().div(Decimal.min(a, b)).times(100).toFixed(1);

export interface Vetted {
  accepted: FiatRate[];
  /** Per currency, why the source's answer was not used (the outage path then prices it). */
  refused: Map<string, string>;
}

/**
 * The rates of one refresh that may price invoices. Each must be quoted by the source no longer ago
 * than the staleness limit and no earlier than the last good rate. With one source, it must also be
 * within the band of the last good rate for its currency, however old that is: a jump is never
 * taken on one source's word (the outage path prices meanwhile, then 503). With two sources, a
 * currency needs both: they must agree within the band, and the rate is their mean (neither feed's
 * quirks favour payer or merchant), timed at the older quote; two independent sources agreeing is
 * what lets a real move larger than the band through. No last good rate at all: the answer is taken.
 */
export function vetRates(
  answers: FiatRate[][],
  lastGood: Map<string, FiatRate>,
  cfg: { maxMovePercent: number; maxAgeMs: number },
  now: Date,
): Vetted {
  const refused = new Map<string, string>();
  let rates = answers[0] ?? [];
  if (answers.length === 2) {
    const other = new Map(answers[1]!.map((r) => [r.currency, r]));
    const both: FiatRate[] = [];
    for (const r of rates) {
      const o = other.get(r.currency);
      if (!o) refused.set(r.currency, `only one of the two rate sources (${r.source}) has a ${r.currency} rate`);
      else if (!withinBand(r.rate, o.rate, cfg.maxMovePercent))
        refused.set(r.currency, `the two rate sources disagree on ${r.currency} (${r.rate} and ${o.rate}, ${pct(r.rate, o.rate)} % apart)`);
      else
        both.push({
          currency: r.currency,
          rate: new Decimal(r.rate).plus(o.rate).div(2).toFixed(),
          source: `${r.source}+${o.source}`,
          fetchedAt: r.fetchedAt < o.fetchedAt ? r.fetchedAt : o.fetchedAt,
        });
    }
    for (const o of other.values())
      if (!rates.some((r) => r.currency === o.currency)) refused.set(o.currency, `only ${o.source} has a ${o.currency} rate`);
    rates = both;
  }
  const accepted: FiatRate[] = [];
  for (const r of rates) {
    const last = lastGood.get(r.currency);
    if (now.getTime() - r.fetchedAt.getTime() > cfg.maxAgeMs)
      refused.set(r.currency, `the source priced ${r.currency} at ${r.fetchedAt.toISOString()}, too long ago`);
    else if (last && r.fetchedAt < last.fetchedAt) refused.set(r.currency, `the source's ${r.currency} rate is older than the last good one`);
    else if (answers.length === 1 && last && !withinBand(r.rate, last.rate, cfg.maxMovePercent))
      refused.set(
        r.currency,
        `the source's ${r.currency} rate ${r.rate} moved ${pct(r.rate, last.rate)} % from the last good ${last.rate} (more than ${cfg.maxMovePercent} %)`,
      );
    else accepted.push(r);
  }
  return { accepted, refused };
}
