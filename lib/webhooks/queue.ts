import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';

/**
 * The hot queue (`webhook_queue`, migration 0021): one row per undelivered
 * delivery, in the partition `webhook_queue_state` names as active. The log
 * (`webhook_deliveries`) keeps every delivery; the queue only what is still
 * to send, so the claim's cost does not grow with history. Rows leave it when
 * their delivery succeeds or dead-letters; a retry moves its row to the active
 * partition, so the inactive one empties and can be TRUNCATEd (rotate-queue.ts).
 */
export const ACTIVE_SLOT = sql`(select slot from webhook_queue_state)`;

/** Puts deliveries just written to the log into the queue (replay, recover, the endpoint test), optionally already claimed. */
export async function enqueueDeliveries(tx: Db, ids: string[], claim?: { token: string; until: Date }) {
  if (ids.length === 0) return;
  await tx.execute(sql`
    insert into webhook_queue (slot, delivery_id, tenant_id, mode, event_id, event_type, endpoint_id, post_back_url, target,
                               attempt_count, next_attempt_at, claimed_until, claim_token)
    select ${ACTIVE_SLOT}, d.id, d.tenant_id, d.mode, d.event_id, d.event_type, d.endpoint_id, d.post_back_url,
           coalesce(d.endpoint_id, d.post_back_url, ''), d.attempt_count, coalesce(d.next_attempt_at, now()),
           ${claim ? claim.until.toISOString() : null}::timestamptz, ${claim?.token ?? null}
      from webhook_deliveries d
     where d.id = any(string_to_array(${ids.join('\n')}, chr(10)))`);
}

/** Takes deliveries out of the queue (recover stops a FAILED one's retries). */
export async function dequeueDeliveries(tx: Db, ids: string[]) {
  if (ids.length === 0) return;
  await tx.execute(sql`delete from webhook_queue where delivery_id = any(string_to_array(${ids.join('\n')}, chr(10)))`);
}
