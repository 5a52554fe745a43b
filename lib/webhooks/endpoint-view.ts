import type { webhookEndpoints } from '@/db/schema';
import { isoOrNull } from '@/lib/api/schemas';
import type { WebhookEndpointView } from './schemas';

type Row = typeof webhookEndpoints.$inferSelect;

/** The public shape of an endpoint (no secret) */
export function endpointView(row: Row, now = new Date()): WebhookEndpointView {
  const graceActive = row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled: row.enabled,
    eventsSubscribed: row.eventsSubscribed,
    apiVersion: row.apiVersion,
    disabledReason: row.disabledReason,
    previousSecretExpiresAt: graceActive ? isoOrNull(row.previousSecretExpiresAt) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
