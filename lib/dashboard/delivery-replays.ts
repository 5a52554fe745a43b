import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';

/**
 * When each of these deliveries' events was last replayed to the same target after it (from any screen or the API:
 * replayEvent records what a replay replays), by delivery id: the dashboard asks "already replayed at …, replay
 * again?" before sending it once more (issue 45).
 */
export async function deliveryReplays(db: Db, owner: { tenantId: string; mode: Mode }, ids: string[]): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  const rows = rowsOf<{ id: string; at: Date | string }>(
    await db.execute(sql`
      select d.id, max(r.created_at) as at
        from webhook_deliveries d
        join webhook_deliveries r on r.event_id = d.event_id and r.replay_of is not null and r.id <> d.id
             and r.created_at >= d.created_at
             and coalesce(r.endpoint_id, r.post_back_url) = coalesce(d.endpoint_id, d.post_back_url)
       where d.tenant_id = ${owner.tenantId} and d.mode = ${owner.mode}
         and d.id in (${sql.join(
           ids.map((i) => sql`${i}`),
           sql`, `,
         )})
       group by d.id`),
  );
  return Object.fromEntries(rows.map((r) => [r.id, new Date(r.at).toISOString()]));
}
