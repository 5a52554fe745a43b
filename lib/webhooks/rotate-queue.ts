import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';

/** Dead rows (deleted or updated away) both queue partitions may hold before a rotation clears them. */
export const ROTATE_MIN_DEAD = 20_000;

/** A hot queue: a table with list partitions `<table>_0` and `<table>_1` on `slot`, and `<table>_state`.slot the active one. */
interface HotQueue {
  table: 'webhook_queue' | 'event_outbox';
  /** Every column but slot. */
  columns: string;
}

export const HOT_QUEUES: HotQueue[] = [
  {
    table: 'webhook_queue',
    columns:
      'delivery_id, tenant_id, mode, event_id, event_type, endpoint_id, post_back_url, target, attempt_count, next_attempt_at, claimed_until, claim_token',
  },
  { table: 'event_outbox', columns: 'event_id, tenant_id, created_at' },
];

const pgCode = (err: unknown) => (err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : null);

interface QueueStats {
  slot: number;
  dead: number;
  deadInactive: number;
  liveInactive: number;
}

async function queueStats(db: Db, q: HotQueue): Promise<QueueStats> {
  const [row] = rowsOf<{ slot: number; dead: string; dead_inactive: string; live_inactive: string }>(
    await db.execute(sql`
      select s.slot,
             coalesce(sum(t.n_dead_tup), 0)::text as dead,
             coalesce(sum(t.n_dead_tup) filter (where t.relname = ${q.table} || '_' || (1 - s.slot)), 0)::text as dead_inactive,
             coalesce(sum(t.n_live_tup) filter (where t.relname = ${q.table} || '_' || (1 - s.slot)), 0)::text as live_inactive
        from ${sql.raw(`${q.table}_state`)} s
        left join pg_stat_user_tables t on t.relname in (${`${q.table}_0`}, ${`${q.table}_1`})
       group by s.slot`),
  );
  return { slot: Number(row!.slot), dead: Number(row!.dead), deadInactive: Number(row!.dead_inactive), liveInactive: Number(row!.live_inactive) };
}

/**
 * Keeps the hot queue free of dead rows whatever autovacuum does. Every
 * delivered, retried or claimed row leaves a dead version behind; once the two
 * partitions hold `minDead` of them (PostgreSQL's own counters), the inactive
 * partition's live rows (attempts in flight, retries written before the last
 * rotation) move to the active one, the inactive one is TRUNCATEd (its space
 * and index entries freed at once) and becomes the active one; the other's
 * dead rows go at the next rotation. Moving costs one write per live row, so
 * a rotation waits until the dead rows outnumber the rows it would move.
 * Under an ACCESS EXCLUSIVE lock on the inactive partition, taken with a short
 * lock_timeout (claims and outcomes pause for the few milliseconds it holds),
 * so no row can be written to it between the move and the TRUNCATE.
 */
async function rotateQueue(db: Db, q: HotQueue, opts: { minDead?: number; force?: boolean }) {
  const columns = sql.raw(q.columns);
  const before = await queueStats(db, q);
  const minDead = opts.minDead ?? ROTATE_MIN_DEAD;
  if (!opts.force && before.dead < minDead) return { rotated: false as const, ...before };
  if (!opts.force) {
    // The rows a rotation would move, counted (up to the dead rows it would free): the statistics' live count
    // lags by seconds and misses rows moved out, which kept a due rotation waiting indefinitely.
    const inactive = sql.raw(`${q.table}_${1 - before.slot}`);
    const [c] = rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from (select 1 from ${inactive} limit ${before.dead + 1}) x`));
    before.liveInactive = Number(c!.n);
    if (before.liveInactive > before.dead) return { rotated: false as const, ...before };
  }
  const result = await db
    .transaction(async (tx) => {
      // One rotation at a time, and none waits for another.
      const [got] = rowsOf<{ ok: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext('usdt-gateway:webhook-queue-rotate')) as ok`),
      );
      if (!got?.ok) return null;
      await tx.execute(sql`set local lock_timeout = '500ms'`);
      const [st] = rowsOf<{ slot: number }>(await tx.execute(sql`select slot from ${sql.raw(`${q.table}_state`)} for update`));
      const active = Number(st!.slot);
      const inactive = 1 - active;
      const from = sql.raw(`${q.table}_${inactive}`);
      const to = sql.raw(`${q.table}_${active}`);
      await tx.execute(sql`lock table ${from} in access exclusive mode`);
      const moved = rowsOf<{ n: string }>(
        await tx.execute(sql`
        with m as (insert into ${to} (slot, ${columns}) select ${active}, ${columns} from ${from} returning 1)
        select count(*)::text as n from m`),
      );
      await tx.execute(sql`truncate ${from}`);
      await tx.execute(sql`update ${sql.raw(`${q.table}_state`)} set slot = ${inactive}, rotated_at = now()`);
      return { moved: Number(moved[0]!.n), slot: inactive };
    })
    // Claims or outcomes held the partition past the lock timeout: try again at the next tick.
    .catch((err: unknown) => {
      if (pgCode(err) === '55P03') return null;
      throw err;
    });
  return result ? { rotated: true as const, ...before, ...result } : { rotated: false as const, ...before };
}

/** Both hot queues (webhook deliveries, the events outbox): the `webhook-queue-rotate` job. */
export async function rotateWebhookQueue(db: Db, opts: { minDead?: number; force?: boolean } = {}) {
  const [deliveries, outbox] = [await rotateQueue(db, HOT_QUEUES[0]!, opts), await rotateQueue(db, HOT_QUEUES[1]!, opts)];
  return { ...deliveries, outbox };
}
