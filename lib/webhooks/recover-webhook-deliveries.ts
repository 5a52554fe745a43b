import { sql } from 'drizzle-orm';
import { webhookDeliveries } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { TEST_EVENT_TYPE } from '@/lib/events/types';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { getWebhookEndpointOrThrow } from './get-webhook-endpoint-or-throw';
import { dequeueDeliveries, enqueueDeliveries } from './queue';
import type { RawRow } from '@/lib/db/raw-row';

/** Deliveries replayed per call; the answer says when more remain (call again: replayed ones are not picked twice). */
export const RECOVER_BATCH = 1000;

/**
 * Bulk recovery after an outage: every FAILED or DEAD_LETTER delivery of the
 * endpoint created in [since, until) becomes a new delivery with a fresh
 * schedule, one per event. The originals are marked superseded (and a FAILED
 * one stops retrying), so calling recover twice sends nothing twice.
 */
export async function recoverWebhookDeliveries(
  db: Db,
  where: { id: string; tenantId: string; mode: Mode },
  window: { since: Date; until?: Date },
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const ep = await getWebhookEndpointOrThrow(tx, where);
    if (!ep.enabled) throw new ApiError('invalid_state', 'The endpoint is disabled; enable it before recovering deliveries.');
    const until = window.until ?? now;
    // In-flight attempts (live claim) are left alone: their outcome is about to be recorded.
    const res = await tx.execute(sql`
      select id, event_id, event_type
        from webhook_deliveries
       where endpoint_id = ${ep.id} and tenant_id = ${ep.tenantId} and mode = ${ep.mode}
         and status in ('FAILED', 'DEAD_LETTER') and superseded_by is null and event_type <> ${TEST_EVENT_TYPE}
         and created_at >= ${window.since.toISOString()}::timestamptz and created_at < ${until.toISOString()}::timestamptz
         and not exists (select 1 from webhook_queue q where q.delivery_id = webhook_deliveries.id
                                                         and q.claimed_until > ${now.toISOString()}::timestamptz)
       order by created_at, id
       limit ${RECOVER_BATCH * 4 + 1}
         for update skip locked`);
    const found = rowsOf<RawRow<typeof webhookDeliveries, { id: string; eventId: string; eventType: string }>>(res);
    // One new delivery per event, however many times it failed in the window.
    const byEvent = new Map<string, { type: string; ids: string[] }>();
    for (const r of found) {
      const e = byEvent.get(r.event_id) ?? byEvent.set(r.event_id, { type: r.event_type, ids: [] }).get(r.event_id)!;
      e.ids.push(r.id);
    }
    const batch = [...byEvent].slice(0, RECOVER_BATCH);
    if (batch.length === 0) return { eventId: null, deliveryIds: [], hasMore: false };
    const rows = batch.map(([eventId, e]) => ({
      id: newId('webhookDelivery'),
      tenantId: ep.tenantId,
      mode: ep.mode,
      eventId,
      eventType: e.type,
      endpointId: ep.id,
      status: 'PENDING' as const,
      nextAttemptAt: now,
      replayOf: e.ids[e.ids.length - 1]!,
      createdAt: now,
      updatedAt: now,
    }));
    await tx.insert(webhookDeliveries).values(rows);
    await enqueueDeliveries(
      tx,
      rows.map((r) => r.id),
    );
    // The originals stop: a FAILED one's queue row goes (a DEAD_LETTER one has none).
    await dequeueDeliveries(
      tx,
      batch.flatMap(([, e]) => e.ids),
    );
    const pairs = JSON.stringify(batch.flatMap(([, e], i) => e.ids.map((id) => [id, rows[i]!.id])));
    await tx.execute(sql`
      update webhook_deliveries d
         set superseded_by = p.value->>1, updated_at = now(),
             status = 'DEAD_LETTER', next_attempt_at = null,
             last_error = case when d.status = 'FAILED' then 'retries stopped: replaced by ' || (p.value->>1) else d.last_error end
        from jsonb_array_elements(${pairs}::jsonb) p
       where d.id = p.value->>0`);
    // Not every matching delivery fitted in this batch? The caller calls again.
    return { eventId: null, deliveryIds: rows.map((r) => r.id), hasMore: byEvent.size > RECOVER_BATCH || found.length > RECOVER_BATCH * 4 };
  });
}
