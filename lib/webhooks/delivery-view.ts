import type { webhookAttempts, webhookDeliveries } from '@/db/schema';
import { isoOrNull } from '@/lib/api/schemas';
import { latestEventType } from '@/lib/api/version-renderings';
import type { DeliveryView } from './schemas';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

/** The public shape of a delivery with its attempts (internal claim fields left out). */
export function deliveryView(d: DeliveryRow, attempts: AttemptRow[]): DeliveryView {
  return {
    id: d.id,
    eventId: d.eventId,
    // Its latest name (a delivery of an event stored before a rename keeps the old one); older versions rename it on the way out.
    eventType: latestEventType(d.eventType),
    endpointId: d.endpointId,
    postBackUrl: d.postBackUrl,
    status: d.status,
    attemptCount: d.attemptCount,
    nextAttemptAt: isoOrNull(d.nextAttemptAt),
    lastError: d.lastError,
    replayOf: d.replayOf,
    createdAt: d.createdAt.toISOString(),
    attempts: attempts.map((a) => ({
      number: a.number,
      attemptedAt: a.attemptedAt.toISOString(),
      url: a.url,
      responseStatus: a.responseStatus,
      durationMs: a.durationMs,
      error: a.error,
      responseBody: a.responseBody,
      apiVersion: a.apiVersion,
    })),
  };
}
