import { and, eq } from 'drizzle-orm';
import { collectionPulls, subscriptionCollections, subscriptions } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { requireRail } from '@/lib/chain/network';
import type { ChainKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { assertTenantRail } from '@/lib/tenants/tenant-rails';
import { getSubscription } from './load-subscription';

/**
 * Moves a subscription to another network of its plan's token, from its next period on: the current period's invoice
 * stays where it was issued (no proration, nothing re-issued); the billing job opens the next one on the new rail.
 * The rail must be one the gateway enables and the account accepts (400, as when subscribing). Refused (409) on a
 * canceled subscription, and while automatic collection is on: the payer's permission lives on the old network's
 * collector and an in-flight pull is resumed on the subscription's network, so the payer turns collection off first.
 */
export async function changeSubscriptionRail(
  db: Db,
  where: { id: string; tenantId: string; mode: Mode; tenant: { rails: string[] | null } },
  input: { chain: ChainKey },
  now = new Date(),
) {
  return db
    .transaction(async (tx) => {
      const [sub] = await tx
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.id, where.id), eq(subscriptions.tenantId, where.tenantId), eq(subscriptions.mode, where.mode)))
        .for('update');
      if (!sub) throw notFound('Subscription');
      if (sub.status === 'canceled') throw new ApiError('invalid_state', 'This subscription is canceled.');
      const rail = { chain: input.chain, token: sub.token };
      requireRail(where.mode, rail, []);
      assertTenantRail(where.tenant, where.mode, rail);
      if (sub.chain === input.chain) return;
      const [collection] = await tx
        .select({ status: subscriptionCollections.status })
        .from(subscriptionCollections)
        .where(eq(subscriptionCollections.subscriptionId, sub.id));
      const [inFlight] = await tx
        .select({ id: collectionPulls.id })
        .from(collectionPulls)
        .where(and(eq(collectionPulls.subscriptionId, sub.id), eq(collectionPulls.status, 'signed')))
        .limit(1);
      if (collection?.status === 'active' || inFlight)
        throw new ApiError('invalid_state', 'Automatic collection is on for this subscription: turn it off before changing the network.');
      await tx.update(subscriptions).set({ chain: input.chain, updatedAt: now }).where(eq(subscriptions.id, sub.id));
    })
    .then(() => getSubscription(db, where));
}
