import { and, desc, eq, sql } from 'drizzle-orm';
import { plans, subscriptions } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/api/errors';
import { cancelSubscription } from '@/lib/subscriptions/cancel-subscription';
import { subscriptionViews } from '@/lib/subscriptions/load-subscription';
import { portalSession, type PortalCustomer } from './portal-session';

// The customer's subscriptions: this tenant and mode, this e-mail whatever its case.
export const ofCustomer = (c: PortalCustomer) =>
  and(eq(subscriptions.tenantId, c.tenantId), eq(subscriptions.mode, c.mode), sql`lower(${subscriptions.customerEmail}) = ${c.customerEmail}`);

/** What the portal lists: the customer's subscriptions at this merchant and mode, newest first, with their plan's name. */
export async function portalSubscriptions(db: Db, customer: PortalCustomer) {
  const rows = await db.select().from(subscriptions).where(ofCustomer(customer)).orderBy(desc(subscriptions.createdAt)).limit(100);
  const views = await subscriptionViews(db, rows);
  const names = new Map(
    (await db.select({ id: plans.id, name: plans.name }).from(plans).where(eq(plans.tenantId, customer.tenantId))).map((p) => [p.id, p.name]),
  );
  return views.map((v) => ({ ...v, planName: names.get(v.planId) ?? v.planId }));
}

/**
 * The portal's "Cancel at period end": the session is checked again, and the subscription must be this customer's at
 * this merchant and mode (another's id is refused as if it did not exist). 401 without a valid session.
 */
export async function cancelFromPortal(db: Db, secret: unknown, subscriptionId: string, now = new Date()) {
  const customer = await portalSession(db, secret, now);
  if (!customer) throw new ApiError('forbidden', 'This portal session has expired.');
  const [sub] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), ofCustomer(customer)));
  if (!sub) throw notFound('Subscription');
  return cancelSubscription(db, { id: sub.id, tenantId: customer.tenantId, mode: customer.mode }, { atPeriodEnd: true }, now);
}
