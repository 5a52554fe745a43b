import type { Subscription } from '@/db/schema';
import type { Db } from '@/lib/db';
import { outbox } from '@/lib/events/outbox';
import type { EventType } from '@/lib/events/types';
import { subscriptionViews } from './load-subscription';

export type SubscriptionEventType = Extract<EventType, `subscription.${string}`>;

/** Writes the subscription's events, in order, in the caller's transaction (the one that made the change); data is its API object. */
export async function writeSubscriptionEvents(tx: Db, sub: Subscription, types: SubscriptionEventType[]): Promise<void> {
  if (!types.length) return;
  const [data] = await subscriptionViews(tx, [sub]);
  await outbox.write(tx, outbox.orderedRows(types.map((type) => ({ tenantId: sub.tenantId, mode: sub.mode, type, subjectId: sub.id, data: data! }))));
}
