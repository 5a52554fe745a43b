import { randomBytes } from 'node:crypto';
import type { BlockList } from 'node:net';
import { webhookDeliveries } from '@/db/schema';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { outbox } from '@/lib/events/outbox';
import type { TestEventDataView } from '@/lib/events/payloads';
import { TEST_EVENT_TYPE } from '@/lib/events/types';
import { newId } from '@/lib/ids';
import { enqueueDeliveries } from './queue';
import type { Mode } from '@/lib/mode';
import { attemptDelivery } from './attempt-delivery';
import { CLAIM_LEASE_MS } from './claim-deliveries';
import { getWebhookEndpointOrThrow } from './get-webhook-endpoint-or-throw';

/**
 * Sends a webhook.test event to one endpoint now (even a disabled one, to
 * check it before enabling) and returns the outcome. The delivery is logged
 * like any other but never retried.
 */
export async function testWebhookEndpoint(db: Db, where: { id: string; tenantId: string; mode: Mode }, opts: { allow?: BlockList } = {}) {
  const ep = await getWebhookEndpointOrThrow(db, where);
  const now = new Date();
  const data: TestEventDataView = { endpointId: ep.id, message: 'Test event sent from the gateway.' };
  // Written already dispatched: the fan-out must not send it to other endpoints.
  const event = { ...outbox.row({ tenantId: ep.tenantId, mode: ep.mode, type: TEST_EVENT_TYPE, subjectId: ep.id, data }, now), dispatchedAt: now };
  const eventId = event.id;
  const deliveryId = newId('webhookDelivery', now.getTime());
  const token = randomBytes(12).toString('base64url');
  const { data: dataJson, api_version: tenantApiVersion } = await db.transaction(async (tx) => {
    await outbox.write(tx, [event]);
    await tx.insert(webhookDeliveries).values({
      id: deliveryId,
      tenantId: ep.tenantId,
      mode: ep.mode,
      eventId,
      eventType: TEST_EVENT_TYPE,
      endpointId: ep.id,
      nextAttemptAt: now,
      createdAt: now,
    });
    // Queued already claimed by this request, so no worker sends it too.
    await enqueueDeliveries(tx, [deliveryId], { token, until: new Date(now.getTime() + CLAIM_LEASE_MS) });
    // The data as stored (jsonb's text form), as every delivery sends it (envelopeBody), and the version it follows.
    return rowsOf<{ data: string; api_version: string }>(
      await tx.execute(sql`select e.data::text as data, t.api_version from events e join tenants t on t.id = e.tenant_id where e.id = ${eventId}`),
    )[0]!;
  });
  const result = await attemptDelivery(
    db,
    {
      id: deliveryId,
      token,
      tenantId: ep.tenantId,
      mode: ep.mode,
      eventId,
      eventType: TEST_EVENT_TYPE,
      eventCreatedAt: now,
      eventDataJson: dataJson,
      attemptCount: 0,
      endpointId: ep.id,
      postBackUrl: null,
      url: ep.url,
      secret: ep.secret,
      previousSecret: ep.previousSecret,
      previousSecretExpiresAt: ep.previousSecretExpiresAt,
      endpointActive: true,
      apiVersion: ep.apiVersion ?? tenantApiVersion,
    },
    { now, allow: opts.allow },
  );
  const o = result.outcome!;
  return {
    deliveryId,
    eventId,
    success: o.ok,
    statusCode: o.status,
    durationMs: o.durationMs,
    error: o.ok ? null : (o.error ?? `HTTP ${o.status}`),
    responseBody: o.responseBody,
  };
}
