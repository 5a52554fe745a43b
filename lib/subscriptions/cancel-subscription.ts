import { and, eq, ne } from 'drizzle-orm';
import { subscriptions } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { getSubscription, getSubscriptionOrThrow } from './load-subscription';
import { emailCancellation } from './email-cancellation';
import { writeSubscriptionEvents } from './write-subscription-events';
import { chargeGasOnEnd } from './charge-gas-on-end';

/**
 * At period end (default): the subscription is not renewed; the billing job cancels it at currentPeriodEnd. Now: it is
 * canceled at once (subscription.canceled); its open invoice stays payable. Canceling a canceled subscription changes nothing.
 */
export async function cancelSubscription(
  db: Db,
  where: { id: string; tenantId: string; mode: Mode },
  input: { atPeriodEnd: boolean },
  now = new Date(),
) {
  await getSubscriptionOrThrow(db, where);
  await db.transaction(async (tx) => {
    const live = and(eq(subscriptions.id, where.id), ne(subscriptions.status, 'canceled'));
    const set = input.atPeriodEnd ? { cancelAtPeriodEnd: true, updatedAt: now } : { status: 'canceled' as const, canceledAt: now, updatedAt: now };
    const [sub] = await tx.update(subscriptions).set(set).where(live).returning();
    if (sub && !input.atPeriodEnd) {
      await writeSubscriptionEvents(tx, sub, ['subscription.canceled']);
      await emailCancellation(tx, sub, 'merchant');
      // Whoever causes a cost pays it: the gas no credit paid yet is charged with the cancel.
      await chargeGasOnEnd(tx, sub);
    }
  });
  return getSubscription(db, where);
}
