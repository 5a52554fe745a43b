import { eq } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { endpointView } from './endpoint-view';
import { getWebhookEndpointOrThrow } from './get-webhook-endpoint-or-throw';
import type { UpdateWebhookEndpointInput } from './schemas';
import { validateEndpointUrl } from './validate-endpoint-url';

/** Changes url, enabled, eventsSubscribed, description or apiVersion; enabling clears the reason the gateway disabled it. */
export async function updateWebhookEndpoint(db: Db, where: { id: string; tenantId: string; mode: Mode }, input: UpdateWebhookEndpointInput) {
  const url = input.url === undefined ? undefined : validateEndpointUrl(input.url, where.mode);
  return db.transaction(async (tx) => {
    const ep = await getWebhookEndpointOrThrow(tx, where, { forUpdate: true });
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(url !== undefined ? { url } : {}),
        ...(input.eventsSubscribed !== undefined ? { eventsSubscribed: input.eventsSubscribed } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled, disabledReason: null } : {}),
        // The next attempt of every delivery, queued ones included, is rendered in it (read at claim time).
        ...(input.apiVersion !== undefined ? { apiVersion: input.apiVersion } : {}),
        updatedAt: new Date(),
      })
      .where(eq(webhookEndpoints.id, ep.id))
      .returning();
    return endpointView(row!);
  });
}
