import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { ORDERED_SCANS_ONLY, tenantFilter } from './claim-deliveries';
import { ACTIVE_SLOT } from './queue';

interface Pair {
  event_id: string;
  tenant_id: string;
  mode: string;
  type: string;
  post_back_url: string | null;
  endpoint_id: string | null;
}

/** The fan-out's read (also explained by bench/queue-plans.ts). */
export function pendingEventsStatement(limit: number, tenantId?: string | string[]) {
  return sql`
      select ev.id as event_id, ev.tenant_id, ev.mode, ev.type, ev.post_back_url, e.id as endpoint_id
        from (select event_id from event_outbox
               where true ${tenantFilter(tenantId)}
               order by created_at limit ${limit}
                 for update skip locked) o
        -- Lateral with limit: a primary-key probe per event, never a hash join over the whole events table.
        cross join lateral (select id, tenant_id, mode, type, post_back_url from events where id = o.event_id limit 1) ev
        left join webhook_endpoints e
          on ev.post_back_url is null and e.tenant_id = ev.tenant_id and e.mode = ev.mode and e.enabled and e.deleted_at is null
         and (ev.type = any(e.events_subscribed) or '*' = any(e.events_subscribed))`;
}

/**
 * Fan-out from the outbox's hot queue (`event_outbox`, filled by a trigger on
 * events, migration 0022): for each undispatched event, one PENDING delivery
 * per enabled endpoint subscribed to its type (or one to its postBackUrl),
 * due at once, and the event taken out of the queue, all in one transaction.
 * SKIP LOCKED lets several workers fan out side by side; fanoutKey makes a
 * repeated fan-out add nothing. `tenantId` limits a pass to one tenant (tests).
 */
export async function dispatchEvents(
  db: Db,
  { now = new Date(), limit = 500, tenantId }: { now?: Date; limit?: number; tenantId?: string | string[] } = {},
) {
  const nowIso = now.toISOString();
  return db.transaction(async (tx) => {
    // Events and their subscribed endpoints in one round trip (a postBackUrl event matches no endpoint);
    // the outbox read in created_at order through its index whatever the statistics say, as the claim.
    await tx.execute(ORDERED_SCANS_ONLY);
    const res = await tx.execute(pendingEventsStatement(limit, tenantId));
    const pairs = rowsOf<Pair>(res);
    if (pairs.length === 0) return { events: 0, deliveries: 0 };
    const eventIds = [...new Set(pairs.map((p) => p.event_id))];
    const rows = pairs
      .filter((p) => p.post_back_url || p.endpoint_id)
      .map((p) => ({
        id: newId('webhookDelivery', now.getTime()),
        tenant_id: p.tenant_id,
        mode: p.mode,
        event_id: p.event_id,
        event_type: p.type,
        endpoint_id: p.post_back_url ? null : p.endpoint_id,
        // A withdrawal's postBackUrl replaces the endpoints for its events (spec, Withdrawals).
        post_back_url: p.post_back_url,
        fanout_key: `${p.event_id}:${p.post_back_url ? 'postback' : p.endpoint_id}`,
      }));
    // One statement whatever the batch size: rows travel as a single JSON parameter.
    await tx.execute(sql`
      with ins as (
        insert into webhook_deliveries (id, tenant_id, mode, event_id, event_type, endpoint_id, post_back_url, fanout_key, status, next_attempt_at, created_at, updated_at)
        select r.id, r.tenant_id, r.mode, r.event_id, r.event_type, r.endpoint_id, r.post_back_url, r.fanout_key, 'PENDING',
               ${nowIso}::timestamptz, ${nowIso}::timestamptz, ${nowIso}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as r(id text, tenant_id text, mode text, event_id text, event_type text, endpoint_id text, post_back_url text, fanout_key text)
        on conflict (fanout_key) do nothing
        returning id, tenant_id, mode, event_id, event_type, endpoint_id, post_back_url
      ), queued as (
        -- The hot queue gets the same rows (queue.ts): the claim reads only it.
        insert into webhook_queue (slot, delivery_id, tenant_id, mode, event_id, event_type, endpoint_id, post_back_url, target, next_attempt_at)
        select ${ACTIVE_SLOT}, id, tenant_id, mode, event_id, event_type, endpoint_id, post_back_url, coalesce(endpoint_id, post_back_url),
               ${nowIso}::timestamptz
          from ins
      )
      -- Leaving the outbox is the event's dispatch: events, the history, is never updated (an update there
      -- rewrote every event with its data on a new page, doubling the table until a vacuum).
      delete from event_outbox where event_id = any(array(select jsonb_array_elements_text(${JSON.stringify(eventIds)}::jsonb)))`);
    return { events: eventIds.length, deliveries: rows.length };
  });
}
