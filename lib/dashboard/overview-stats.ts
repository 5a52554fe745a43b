import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';

export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];

export interface DayPoint {
  day: string;
  /** Decimal strings: charts plot them, labels print them as they are. */
  received: string;
  fees: string;
  delivered: number;
  failed: number;
}

/**
 * The overview's series over the last `days` UTC days (today included), every
 * day present even when empty: settled volume and fees (completed
 * settlements), invoices by status (created in the period) and webhook
 * delivery outcomes (final outcomes only: succeeded vs. failed or dead-lettered).
 */
export async function getOverviewStats(db: Db, owner: { tenantId: string; mode: Mode }, days: Period, now = new Date()) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = new Date(today - (days - 1) * 86_400_000);
  const { tenantId, mode } = owner;
  // Raw SQL parameters go through the driver as text: pass the instant as ISO and cast.
  const since = sql`${start.toISOString()}::timestamptz`;
  const [volume, statuses, hooks] = await Promise.all([
    db.execute(sql`
      select to_char(date_trunc('day', completed_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
             sum(amount)::text as received, sum(fee_amount)::text as fees
        from settlements
       where tenant_id = ${tenantId} and mode = ${mode} and status = 'completed' and completed_at >= ${since}
       group by 1`),
    db.execute(sql`
      select status, count(*)::int as n from invoices
       where tenant_id = ${tenantId} and mode = ${mode} and created_at >= ${since}
       group by 1 order by 2 desc`),
    db.execute(sql`
      select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
             count(*) filter (where status = 'SUCCEEDED')::int as delivered,
             count(*) filter (where status in ('FAILED', 'DEAD_LETTER'))::int as failed
        from webhook_deliveries
       where tenant_id = ${tenantId} and mode = ${mode} and created_at >= ${since}
       group by 1`),
  ]);
  const vol = new Map(rowsOf<{ day: string; received: string; fees: string }>(volume).map((r) => [r.day, r]));
  const hk = new Map(rowsOf<{ day: string; delivered: number; failed: number }>(hooks).map((r) => [r.day, r]));
  const series: DayPoint[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const v = vol.get(day);
    const h = hk.get(day);
    series.push({
      day,
      received: formatAmount(v?.received ?? '0'),
      fees: formatAmount(v?.fees ?? '0'),
      delivered: Number(h?.delivered ?? 0),
      failed: Number(h?.failed ?? 0),
    });
  }
  const invoicesByStatus = rowsOf<{ status: string; n: number }>(statuses).map((r) => ({ status: r.status, count: Number(r.n) }));
  return { days, series, invoicesByStatus };
}
