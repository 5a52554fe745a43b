import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { deliveryView } from '@/lib/webhooks/delivery-view';

/** Webhook deliveries (with attempts) of the given events, newest first; scoped to the tenant and mode. */
export async function listEventDeliveries(db: Db, owner: { tenantId: string; mode: Mode }, eventIds: string[]) {
  if (eventIds.length === 0) return [];
  const d = webhookDeliveries;
  const rows = await db
    .select()
    .from(d)
    .where(and(eq(d.tenantId, owner.tenantId), eq(d.mode, owner.mode), inArray(d.eventId, eventIds)))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(200);
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
  return rows.map((r) =>
    deliveryView(
      r,
      attempts.filter((a) => a.deliveryId === r.id),
    ),
  );
}
