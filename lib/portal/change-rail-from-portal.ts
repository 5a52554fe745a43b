import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { subscriptions, tenants } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { OFFERED_CHAINS } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { changeSubscriptionRail } from '@/lib/subscriptions/change-subscription-rail';
import { portalSession } from './portal-session';
import { ofCustomer } from './portal-subscriptions';

const Chain = z.enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` });

/**
 * The portal's "Change network": the session is checked again, and the subscription must be this customer's at this
 * merchant and mode (another customer's or tenant's id is refused as not found). The new network is one the merchant
 * accepts for the plan's token; it applies from the next period (changeSubscriptionRail). 403 without a valid session.
 */
export async function changeRailFromPortal(db: Db, secret: unknown, subscriptionId: string, chain: unknown, now = new Date()) {
  const customer = await portalSession(db, secret, now);
  if (!customer) throw new ApiError('forbidden', 'This portal session has expired.');
  const [sub] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), ofCustomer(customer)));
  if (!sub) throw notFound('Subscription');
  const parsed = Chain.safeParse(chain);
  if (!parsed.success) throw new ApiError('validation_failed', 'Choose a network.', [{ path: 'chain', message: parsed.error.issues[0]!.message }]);
  const [tenant] = await db.select({ rails: tenants.rails }).from(tenants).where(eq(tenants.id, customer.tenantId));
  return changeSubscriptionRail(db, { id: sub.id, tenantId: customer.tenantId, mode: customer.mode, tenant: tenant! }, { chain: parsed.data }, now);
}
