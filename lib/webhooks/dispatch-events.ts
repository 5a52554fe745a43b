import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { events, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { subscribes } from './subscribes';

/**
 * Fan-out from the outbox: for each undispatched event, one PENDING delivery
 * per enabled endpoint subscribed to its type (or one to its postBackUrl),
 * due at once, and the event marked dispatched, all in one transaction.
 * SKIP LOCKED lets several workers fan out side by side; fanoutKey makes a
 * repeated fan-out add nothing. `tenantId` limits a pass to one tenant (tests).
 */
export async function dispatchEvents(db: Db, { now = new Date(), limit = 500, tenantId }: { now?: Date; limit?: number; tenantId?: string } = {}) {
  return db.transaction(async (tx) => {
    const batch = await tx
      .select({ id: events.id, tenantId: events.tenantId, mode: events.mode, type: events.type, postBackUrl: events.postBackUrl })
      .from(events)
      .where(tenantId ? and(isNull(events.dispatchedAt), eq(events.tenantId, tenantId)) : isNull(events.dispatchedAt))
      .orderBy(events.createdAt)
      .limit(limit)
      .for('update', { skipLocked: true });
    if (batch.length === 0) return { events: 0, deliveries: 0 };

    const tenantIds = [...new Set(batch.filter((e) => !e.postBackUrl).map((e) => e.tenantId))];
    const endpoints = tenantIds.length
      ? await tx
          .select({ id: webhookEndpoints.id, tenantId: webhookEndpoints.tenantId, mode: webhookEndpoints.mode, eventsSubscribed: webhookEndpoints.eventsSubscribed })
          .from(webhookEndpoints)
          .where(and(inArray(webhookEndpoints.tenantId, tenantIds), eq(webhookEndpoints.enabled, true), isNull(webhookEndpoints.deletedAt)))
      : [];

    const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const ev of batch) {
      const base = { tenantId: ev.tenantId, mode: ev.mode, eventId: ev.id, eventType: ev.type, status: 'PENDING' as const, nextAttemptAt: now, createdAt: now, updatedAt: now };
      if (ev.postBackUrl) {
        // A withdrawal's postBackUrl replaces the endpoints for its events (spec, Withdrawals).
        rows.push({ ...base, id: newId('webhookDelivery', now.getTime()), postBackUrl: ev.postBackUrl, fanoutKey: `${ev.id}:postback` });
        continue;
      }
      for (const ep of endpoints) {
        if (ep.tenantId !== ev.tenantId || ep.mode !== ev.mode || !subscribes(ep.eventsSubscribed, ev.type)) continue;
        rows.push({ ...base, id: newId('webhookDelivery', now.getTime()), endpointId: ep.id, fanoutKey: `${ev.id}:${ep.id}` });
      }
    }
    for (let i = 0; i < rows.length; i += 1000) {
      await tx.insert(webhookDeliveries).values(rows.slice(i, i + 1000)).onConflictDoNothing({ target: webhookDeliveries.fanoutKey });
    }
    await tx
      .update(events)
      .set({ dispatchedAt: sql`${now.toISOString()}::timestamptz` })
      .where(inArray(events.id, batch.map((e) => e.id)));
    return { events: batch.length, deliveries: rows.length };
  });
}
