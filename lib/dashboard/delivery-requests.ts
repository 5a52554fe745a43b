import { and, eq, inArray, sql } from 'drizzle-orm';
import { events } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { envelopeBody } from '@/lib/webhooks/attempt-delivery';

/** One request body to show: an event as rendered in an API version (null: an attempt made before versions). */
export interface DeliveryRequest {
  eventId: string;
  apiVersion: string | null;
}

export const requestKey = (r: DeliveryRequest) => `${r.eventId} ${r.apiVersion ?? ''}`;

/**
 * The request bodies deliveries of these events carried, by requestKey: the signed envelope is rebuilt from the
 * stored event exactly as the sender builds it, in the API version the attempt recorded.
 */
export async function deliveryRequestBodies(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  requests: DeliveryRequest[],
): Promise<Map<string, string>> {
  if (requests.length === 0) return new Map();
  const rows = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt, data: sql<string>`${events.data}::text` })
    .from(events)
    .where(and(eq(events.tenantId, owner.tenantId), eq(events.mode, owner.mode), inArray(events.id, [...new Set(requests.map((r) => r.eventId))])));
  const byId = new Map(rows.map((e) => [e.id, e]));
  const out = new Map<string, string>();
  for (const r of requests) {
    const e = byId.get(r.eventId);
    if (!e) continue;
    out.set(
      requestKey(r),
      r.apiVersion === null
        ? // Sent before versions: the envelope had no apiVersion then.
          `{"id":${JSON.stringify(e.id)},"type":${JSON.stringify(e.type)},"createdAt":"${e.createdAt.toISOString()}","data":${e.data}}`
        : envelopeBody({ eventId: e.id, eventType: e.type, eventCreatedAt: e.createdAt, eventDataJson: e.data, apiVersion: r.apiVersion }),
    );
  }
  return out;
}

/** The headers of one attempt; the signature is left out (it is an HMAC of the secret's choice of timestamp, not useful to show). */
export function attemptRequestHeaders(eventId: string, tenantId: string, attemptedAt: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-Webhook-Id': eventId,
    'X-Webhook-Timestamp': String(new Date(attemptedAt).getTime()),
    'X-Webhook-Signature': 't=…,v1=… (HMAC-SHA256, not shown)',
    'X-Tenant-Id': tenantId,
  };
}
