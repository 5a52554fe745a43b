import { inArray } from 'drizzle-orm';
import { webhookDeliveries } from '@/db/schema';
import type { Db } from '@/lib/db';

/** Where replayed deliveries stand now: the console polls this until each one succeeded or gave up. */
export async function getDeliveryOutcomes(db: Db, ids: string[]) {
  const unique = [...new Set(ids)].slice(0, 200);
  if (unique.length === 0) return [];
  return db
    .select({
      id: webhookDeliveries.id,
      status: webhookDeliveries.status,
      attemptCount: webhookDeliveries.attemptCount,
      lastError: webhookDeliveries.lastError,
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, unique));
}
