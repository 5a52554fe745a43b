import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { getWebhookEndpointOrThrow } from './get-webhook-endpoint-or-throw';

/**
 * Deletes an endpoint: it stops receiving at once (queued deliveries are
 * closed unsent when due). The row is kept, without its secret, so the
 * delivery log can still name it.
 */
export async function deleteWebhookEndpoint(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  return db.transaction(async (tx) => {
    const ep = await getWebhookEndpointOrThrow(tx, where, { forUpdate: true });
    const now = new Date();
    await tx
      .update(webhookEndpoints)
      .set({ deletedAt: now, enabled: false, secret: '', previousSecret: null, previousSecretExpiresAt: null, updatedAt: now })
      .where(eq(webhookEndpoints.id, ep.id));
    return { id: ep.id, deleted: true as const };
  });
}
