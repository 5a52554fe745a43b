import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { recoverWebhookDeliveries } from '@/lib/webhooks/recover-webhook-deliveries';

/** Console: the tenant's own "recover since" for one endpoint (any tenant), recorded in the audit log with it. */
export async function recoverEndpoint(db: Db, actor: AuditActor, endpointId: string, since: Date, now = new Date()) {
  if (Number.isNaN(since.getTime()))
    throw new ApiError('validation_failed', 'Give a valid date and time to recover from.', [{ path: 'since', message: 'invalid date' }]);
  if (since > now)
    throw new ApiError('validation_failed', 'The start of the window is in the future.', [{ path: 'since', message: 'must be in the past' }]);
  return db.transaction(async (tx) => {
    const [ep] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
    if (!ep || ep.deletedAt) throw notFound('Webhook endpoint');
    const r = await recoverWebhookDeliveries(tx, { id: ep.id, tenantId: ep.tenantId, mode: ep.mode }, { since }, now);
    await recordAudit(
      tx,
      actor,
      {
        action: 'webhook.endpoint_recovered',
        target: { type: 'webhook_endpoint', id: ep.id },
        tenantId: ep.tenantId,
        mode: ep.mode,
        before: { since: since.toISOString() },
        after: { replayDeliveryIds: r.deliveryIds, hasMore: r.hasMore },
      },
      now,
    );
    return { endpointId: ep.id, deliveryIds: r.deliveryIds, hasMore: r.hasMore };
  });
}
