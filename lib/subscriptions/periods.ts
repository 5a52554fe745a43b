import type { PlanInterval } from '@/db/schema/plans';

const DAY_MS = 86_400_000;

/** `n` intervals after `anchor`, in UTC; months and years keep the anchor's day, clamped to the month's last day. */
export function addIntervals(anchor: Date, interval: PlanInterval, count: number, n: number): Date {
  if (interval === 'day' || interval === 'week') return new Date(anchor.getTime() + n * count * (interval === 'day' ? 1 : 7) * DAY_MS);
  const months = n * count * (interval === 'year' ? 12 : 1);
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const out = new Date(anchor);
  out.setUTCFullYear(y, m, Math.min(anchor.getUTCDate(), lastDay));
  return out;
}

export const addDays = (d: Date, days: number) => new Date(d.getTime() + days * DAY_MS);

/** A period's invoice is due within a week, or within the period when it is shorter (a daily plan's by the next day). */
export function dueMinutes(start: Date, end: Date): number {
  return Math.max(5, Math.min(10_080, Math.floor((end.getTime() - start.getTime()) / 60_000)));
}
