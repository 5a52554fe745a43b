import { and, eq, isNull } from 'drizzle-orm';
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
 * event's postBackUrl for withdrawals created with one.
 */
export async function replayEvent(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  eventId: string,
  opts: { endpointId?: string } = {},
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
      await enqueueDeliveries(
        tx,
        rows.map((r) => r.id),
      );
    }
    return { eventId: ev.id, deliveryIds: rows.map((r) => r.id) };
  });
}
