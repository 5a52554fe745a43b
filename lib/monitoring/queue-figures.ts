import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { env } from '@/lib/env';

export interface QueueFigures {
  /** `mode:chainId` → last scanned block. */
  cursors: Map<string, number>;
  /** `mode:chainId` → open items and the oldest one's age in seconds. */
  settlements: Map<string, { n: number; oldest: number }>;
  /** `mode:chainId` → TRON sweeps in the fair stake queue (settlements.stake_wait_since set, not yet planned). */
  stakeQueue: Map<string, number>;
  withdrawals: Map<string, { n: number; oldest: number }>;
  webhookQueue: number;
  webhookDue: number;
  webhookOldestDue: number;
  outbox: number;
  /** First 8 hex of an exchange key's hash → weight spent in the current window. */
  exchangeWeight: Map<string, number>;
  jobs: { name: string; runs: number; failures: number; durationMs: number; lastDurationMs: number | null; lastRunAt: number | null }[];
}

const byNetwork = (rows: { mode: string; chain_id: number; n: string; oldest: string | null }[]) =>
  new Map(rows.map((r) => [`${r.mode}:${r.chain_id}`, { n: Number(r.n), oldest: Number(r.oldest ?? 0) }]));

/** The database's side of /metrics: counts, ages and sums only (each statement served by an existing index or a small table). */
export async function readQueueFigures(db: Db): Promise<QueueFigures> {
  const windowSecs = env().EXCHANGE_WEIGHT_WINDOW_SECONDS;
  const [cursors, settlements, stakeQueue, withdrawals, queue, outbox, weight, jobs] = await Promise.all([
    db.execute(sql`select mode, chain_id, last_block from chain_cursors`),
    db.execute(sql`
      select mode, chain_id, count(*) as n, extract(epoch from now() - min(created_at))::float8 as oldest
        from settlements where status in ('pending', 'processing') group by 1, 2`),
    db.execute(sql`
      select mode, chain_id, count(*) as n from settlements
       where status in ('pending', 'processing') and stake_wait_since is not null and gas_plan is null group by 1, 2`),
    db.execute(sql`
      select mode, chain_id, count(*) as n, extract(epoch from now() - min(created_at))::float8 as oldest
        from withdrawals where status in ('PENDING', 'PROCESSING') group by 1, 2`),
    db.execute(sql`
      select count(*) as n, count(*) filter (where next_attempt_at <= now()) as due,
             coalesce(extract(epoch from now() - min(next_attempt_at) filter (where next_attempt_at <= now())), 0)::float8 as oldest
        from webhook_queue`),
    db.execute(sql`select count(*) as n from event_outbox`),
    db.execute(sql`
      select left(key_hash, 8) as key, sum(weight) as w from exchange_weight_spends
       where spent_at > now() - make_interval(secs => ${windowSecs}) group by 1`),
    db.execute(sql`select name, runs, failures, duration_ms_total, last_duration_ms, last_run_at from job_leases order by name`),
  ]);
  const [qr] = rowsOf<{ n: string; due: string; oldest: number }>(queue);
  return {
    cursors: new Map(
      rowsOf<{ mode: string; chain_id: number; last_block: string }>(cursors).map((r) => [`${r.mode}:${r.chain_id}`, Number(r.last_block)]),
    ),
    settlements: byNetwork(rowsOf(settlements)),
    stakeQueue: new Map(rowsOf<{ mode: string; chain_id: number; n: string }>(stakeQueue).map((r) => [`${r.mode}:${r.chain_id}`, Number(r.n)])),
    withdrawals: byNetwork(rowsOf(withdrawals)),
    webhookQueue: Number(qr?.n ?? 0),
    webhookDue: Number(qr?.due ?? 0),
    webhookOldestDue: Number(qr?.oldest ?? 0),
    outbox: Number(rowsOf<{ n: string }>(outbox)[0]?.n ?? 0),
    exchangeWeight: new Map(rowsOf<{ key: string; w: string }>(weight).map((r) => [r.key, Number(r.w)])),
    jobs: rowsOf<{
      name: string;
      runs: string;
      failures: string;
      duration_ms_total: string;
      last_duration_ms: number | null;
      last_run_at: string | Date | null;
    }>(jobs).map((j) => ({
      name: j.name,
      runs: Number(j.runs),
      failures: Number(j.failures),
      durationMs: Number(j.duration_ms_total),
      lastDurationMs: j.last_duration_ms === null ? null : Number(j.last_duration_ms),
      lastRunAt: j.last_run_at === null ? null : new Date(j.last_run_at).getTime(),
    })),
  };
}
