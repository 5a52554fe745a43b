import { eq } from 'drizzle-orm';
import { webhookDeliveries } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { replayEvent } from '@/lib/webhooks/replay-event';

/**
 * Console: sends a dead-lettered delivery's event again to the same target,
 * through the tenant's own replay function. The original is marked as
 * replaced, so the same dead letter is never replayed twice (and recover
 * skips it); the audit row commits with the replay or not at all.
 */
export async function replayDeadLetter(db: Db, actor: AuditActor, deliveryId: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const [dl] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).for('update');
    if (!dl) throw notFound('Delivery');
    if (dl.status !== 'DEAD_LETTER') throw new ApiError('invalid_state', `Delivery ${dl.id} is ${dl.status}, not dead-lettered.`);
    if (dl.supersededBy) throw new ApiError('invalid_state', `Delivery ${dl.id} was already replayed as ${dl.supersededBy}.`);
    const owner = { tenantId: dl.tenantId, mode: dl.mode };
    // replayEvent marks the dead letter replaced by the new delivery (as it does for a replay from the dashboard).
    const { deliveryIds } = await replayEvent(
      tx,
      owner,
      dl.eventId,
      { ...(dl.endpointId ? { endpointId: dl.endpointId } : {}), replayOf: dl.id },
      now,
    );
    const newId = deliveryIds[0]!;
    await recordAudit(
      tx,
      actor,
      {
        action: 'webhook.dead_letter_replayed',
        target: { type: 'webhook_delivery', id: dl.id },
        tenantId: dl.tenantId,
        mode: dl.mode,
        before: { status: dl.status, supersededBy: null },
        after: { supersededBy: newId, replayDeliveryId: newId, eventId: dl.eventId, endpointId: dl.endpointId },
      },
      now,
    );
    return { deliveryId: dl.id, replayDeliveryId: newId };
  });
}
