import { and, eq, isNull } from 'drizzle-orm';
import { webhookDeliveries } from '@/db/schema';
import type { Db } from '@/lib/db';

/**
 * Links a dead letter and the delivery that replays it, in the caller's
 * transaction: the new one records what it replays, the dead letter what
 * replaced it (once: a dead letter already superseded keeps its first replay),
 * so it is never replayed twice and recovery skips it.
 */
export async function linkReplay(tx: Db, deadLetterId: string, replayId: string, now: Date): Promise<void> {
  await tx.update(webhookDeliveries).set({ replayOf: deadLetterId }).where(eq(webhookDeliveries.id, replayId));
  await tx
    .update(webhookDeliveries)
    .set({ supersededBy: replayId, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, deadLetterId), isNull(webhookDeliveries.supersededBy)));
}
