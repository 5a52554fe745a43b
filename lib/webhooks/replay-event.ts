import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { events, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/api/errors';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { getWebhookEndpointOrThrow } from './get-webhook-endpoint-or-throw';
import { enqueueDeliveries } from './queue';
import { subscribes } from './subscribes';

/**
 * Re-delivers an event (whatever became of its earlier deliveries, dead
 * letters included) as new deliveries with a fresh schedule: to the endpoints
 * enabled and subscribed now, to `endpointId` only when given, or to the
 * event's postBackUrl for withdrawals created with one. Whichever screen asks (the dashboard, the console, the
 * API), the replay is recorded on what it replaces (issue 45): every dead letter of the event to the same target is
 * marked replaced by it, so the console no longer offers it, and the new delivery says what it replays.
 */
export async function replayEvent(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  eventId: string,
  opts: { endpointId?: string; replayOf?: string } = {},
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const [ev] = await tx
      .select()
      .from(events)
      .where(and(eq(events.id, eventId), eq(events.tenantId, owner.tenantId), eq(events.mode, owner.mode)));
    if (!ev) throw notFound('Event');
    const base = {
      tenantId: ev.tenantId,
      mode: ev.mode,
      eventId: ev.id,
      eventType: ev.type,
      status: 'PENDING' as const,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    };
    let rows: (typeof webhookDeliveries.$inferInsert)[];
    if (ev.postBackUrl) {
      if (opts.endpointId) {
        throw new ApiError('validation_failed', 'This event belongs to a withdrawal with a postBackUrl; it is only sent there.', [
          { path: 'endpointId', message: 'not allowed for postBackUrl events' },
        ]);
      }
      rows = [{ ...base, id: newId('webhookDelivery'), postBackUrl: ev.postBackUrl }];
    } else if (opts.endpointId) {
      const ep = await getWebhookEndpointOrThrow(tx, { id: opts.endpointId, ...owner });
      if (!ep.enabled) throw new ApiError('invalid_state', 'The endpoint is disabled; enable it before replaying to it.');
      rows = [{ ...base, id: newId('webhookDelivery'), endpointId: ep.id }];
    } else {
      const eps = await tx
        .select({ id: webhookEndpoints.id, eventsSubscribed: webhookEndpoints.eventsSubscribed })
        .from(webhookEndpoints)
        .where(
          and(
            eq(webhookEndpoints.tenantId, owner.tenantId),
            eq(webhookEndpoints.mode, owner.mode),
            eq(webhookEndpoints.enabled, true),
            isNull(webhookEndpoints.deletedAt),
          ),
        );
      rows = eps.filter((e) => subscribes(e.eventsSubscribed, ev.type)).map((e) => ({ ...base, id: newId('webhookDelivery'), endpointId: e.id }));
    }
    if (rows.length) {
      await tx.insert(webhookDeliveries).values(rows);
      for (const r of rows) await linkReplays(tx, ev.id, r, opts.replayOf, now);
      await enqueueDeliveries(
        tx,
        rows.map((r) => r.id),
      );
    }
    return { eventId: ev.id, deliveryIds: rows.map((r) => r.id) };
  });
}

/** Links a new delivery and the earlier deliveries of its event to the same target (`replayOf`: the one replayed, when known). */
async function linkReplays(tx: Db, eventId: string, r: typeof webhookDeliveries.$inferInsert, replayOf: string | undefined, now: Date) {
  const d = webhookDeliveries;
  const same = and(eq(d.eventId, eventId), r.endpointId ? eq(d.endpointId, r.endpointId) : eq(d.postBackUrl, r.postBackUrl!), ne(d.id, r.id!));
  const replaced = await tx
    .update(d)
    .set({ supersededBy: r.id!, updatedAt: now })
    .where(and(same, eq(d.status, 'DEAD_LETTER'), isNull(d.supersededBy)))
    .returning({ id: d.id, createdAt: d.createdAt });
  replaced.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id));
  const [latest] = replaced.length ? replaced : await tx.select({ id: d.id }).from(d).where(same).orderBy(desc(d.createdAt), desc(d.id)).limit(1);
  const of = replayOf ?? latest?.id;
  if (of) await tx.update(d).set({ replayOf: of }).where(eq(d.id, r.id!));
}
