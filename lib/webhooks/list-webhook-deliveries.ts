import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import type { Db } from '@/lib/db';
import { pageMeta } from '@/lib/api/schemas';
import { eventTypeNames, latestEventType } from '@/lib/api/version-renderings';
import type { Mode } from '@/lib/mode';
import { deliveryView } from './delivery-view';
import type { ListDeliveriesQuery } from './schemas';

/** GET /v1/webhooks/deliveries: newest first, filtered, each with its attempts and nextAttemptAt. */
export async function listWebhookDeliveries(db: Db, owner: { tenantId: string; mode: Mode }, q: z.output<typeof ListDeliveriesQuery>) {
  const d = webhookDeliveries;
  const conds: SQL[] = [eq(d.tenantId, owner.tenantId), eq(d.mode, owner.mode)];
  if (q.endpointId) conds.push(eq(d.endpointId, q.endpointId));
  if (q.eventId) conds.push(eq(d.eventId, q.eventId));
  // Any name the type had: deliveries keep the name their event was stored with (a request in an older version asks by the old one).
  if (q.eventType) conds.push(inArray(d.eventType, eventTypeNames(latestEventType(q.eventType))));
  if (q.status) conds.push(eq(d.status, q.status));
  const where = and(...conds);
  const [totals, rows] = await Promise.all([
    db.select({ total: count() }).from(d).where(where),
    db
      .select()
      .from(d)
      .where(where)
      .orderBy(desc(d.createdAt), desc(d.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
  ]);
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(asc(webhookAttempts.number))
    : [];
  return {
    data: rows.map((r) =>
      deliveryView(
        r,
        attempts.filter((a) => a.deliveryId === r.id),
      ),
    ),
    meta: pageMeta(Number(totals[0]?.total ?? 0), q.page, q.limit),
  };
}
