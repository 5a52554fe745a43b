import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { ApiVersion } from '@/lib/api/versions';
import { sealSecret } from '@/lib/crypto/secret-box';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { endpointView } from './endpoint-view';
import type { CreateWebhookEndpointInput } from './schemas';
import { newWebhookSecret } from './secret';
import { validateEndpointUrl } from './validate-endpoint-url';

export const MAX_ENDPOINTS = 20;

/** Who creates it: a request that named an API version (header or the key's own) pins the endpoint to it. */
export interface EndpointCreator {
  tenantId: string;
  mode: Mode;
  apiVersion?: ApiVersion;
  apiVersionSource?: 'header' | 'key' | 'tenant';
}

/**
 * Creates an endpoint and returns it with its secret (shown only here and on rotation). Its API version is the
 * body's; else the one the request named, so its events read like the responses the integration was written
 * against; else none: it follows the tenant's.
 */
export async function createWebhookEndpoint(db: Db, owner: EndpointCreator, input: CreateWebhookEndpointInput) {
  const url = validateEndpointUrl(input.url, owner.mode);
  const named = owner.apiVersionSource === 'header' || owner.apiVersionSource === 'key' ? owner.apiVersion : undefined;
  const apiVersion = input.apiVersion !== undefined ? input.apiVersion : (named ?? null);
  return db.transaction(async (tx) => {
    // Serializes creations per tenant and mode so two concurrent requests cannot both pass the limit.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${owner.tenantId}:${owner.mode}`}))`);
    const [{ n }] = (await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.tenantId, owner.tenantId), eq(webhookEndpoints.mode, owner.mode), isNull(webhookEndpoints.deletedAt)))) as [
      { n: number },
    ];
    if (Number(n) >= MAX_ENDPOINTS) {
      throw new ApiError('limit_exceeded', `At most ${MAX_ENDPOINTS} webhook endpoints per tenant and mode.`, [
        { path: 'url', message: `limit of ${MAX_ENDPOINTS} endpoints reached; delete one first` },
      ]);
    }
    const secret = newWebhookSecret();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId('webhookEndpoint'),
        tenantId: owner.tenantId,
        mode: owner.mode,
        url,
        description: input.description ?? null,
        enabled: input.enabled,
        eventsSubscribed: input.eventsSubscribed,
        apiVersion,
        secret: sealSecret(secret),
      })
      .returning();
    return { ...endpointView(row!), secret };
  });
}
