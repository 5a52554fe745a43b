import { and, eq, inArray, sql } from 'drizzle-orm';
import { events } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { envelopeBody } from '@/lib/webhooks/attempt-delivery';

/**
 * The request bodies the deliveries of these events carried: the signed
 * envelope is rebuilt from the stored event exactly as the sender builds it.
 */
export async function deliveryRequestBodies(db: Db, owner: { tenantId: string; mode: Mode }, eventIds: string[]): Promise<Map<string, string>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt, data: sql<string>`${events.data}::text` })
    .from(events)
    .where(and(eq(events.tenantId, owner.tenantId), eq(events.mode, owner.mode), inArray(events.id, [...new Set(eventIds)])));
  return new Map(rows.map((e) => [e.id, envelopeBody({ eventId: e.id, eventType: e.type, eventCreatedAt: e.createdAt, eventDataJson: e.data })]));
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
