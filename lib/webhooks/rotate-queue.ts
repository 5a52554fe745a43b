import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';

/** Dead rows (deleted or updated away) both queue partitions may hold before a rotation clears them. */
export const ROTATE_MIN_DEAD = 20_000;

const QUEUE_COLUMNS = sql.raw(
  'delivery_id, tenant_id, mode, event_id, event_type, endpoint_id, post_back_url, target, attempt_count, next_attempt_at, claimed_until, claim_token',
);

const pgCode = (err: unknown) => (err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : null);

interface QueueStats {
  slot: number;
  dead: number;
  deadInactive: number;
  liveInactive: number;
}

async function queueStats(db: Db): Promise<QueueStats> {
  const [row] = rowsOf<{ slot: number; dead: string; dead_inactive: string; live_inactive: string }>(
    await db.execute(sql`
      select s.slot,
             coalesce(sum(t.n_dead_tup), 0)::text as dead,
             coalesce(sum(t.n_dead_tup) filter (where t.relname = 'webhook_queue_' || (1 - s.slot)), 0)::text as dead_inactive,
             coalesce(sum(t.n_live_tup) filter (where t.relname = 'webhook_queue_' || (1 - s.slot)), 0)::text as live_inactive
        from webhook_queue_state s
        left join pg_stat_user_tables t on t.relname in ('webhook_queue_0', 'webhook_queue_1')
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
export async function rotateWebhookQueue(db: Db, opts: { minDead?: number; force?: boolean } = {}) {
  const before = await queueStats(db);
  const minDead = opts.minDead ?? ROTATE_MIN_DEAD;
  if (!opts.force && (before.dead < minDead || before.liveInactive > before.dead)) return { rotated: false as const, ...before };
  const result = await db
    .transaction(async (tx) => {
      // One rotation at a time, and none waits for another.
      const [got] = rowsOf<{ ok: boolean }>(
        await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext('usdt-gateway:webhook-queue-rotate')) as ok`),
      );
      if (!got?.ok) return null;
      await tx.execute(sql`set local lock_timeout = '500ms'`);
      const [st] = rowsOf<{ slot: number }>(await tx.execute(sql`select slot from webhook_queue_state for update`));
      const active = Number(st!.slot);
      const inactive = 1 - active;
      const from = sql.raw(`webhook_queue_${inactive}`);
      const to = sql.raw(`webhook_queue_${active}`);
      await tx.execute(sql`lock table ${from} in access exclusive mode`);
      const moved = rowsOf<{ n: string }>(
        await tx.execute(sql`
        with m as (insert into ${to} (slot, ${QUEUE_COLUMNS}) select ${active}, ${QUEUE_COLUMNS} from ${from} returning 1)
        select count(*)::text as n from m`),
      );
      await tx.execute(sql`truncate ${from}`);
      await tx.execute(sql`update webhook_queue_state set slot = ${inactive}, rotated_at = now()`);
      return { moved: Number(moved[0]!.n), slot: inactive };
    })
    // Claims or outcomes held the partition past the lock timeout: try again at the next tick.
    .catch((err: unknown) => {
      if (pgCode(err) === '55P03') return null;
      throw err;
    });
  return result ? { rotated: true as const, ...before, ...result } : { rotated: false as const, ...before };
}
