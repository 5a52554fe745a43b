import { and, desc, eq, sql } from 'drizzle-orm';
import { plans, subscriptions } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/api/errors';
import { cancelSubscription } from '@/lib/subscriptions/cancel-subscription';
import { collectionOffer } from '@/lib/subscriptions/collect/collection-offer';
import { subscriptionViews } from '@/lib/subscriptions/load-subscription';
import { portalSession, type PortalCustomer } from './portal-session';

// The customer's subscriptions: this tenant and mode, this e-mail whatever its case.
export const ofCustomer = (c: PortalCustomer) =>
  and(eq(subscriptions.tenantId, c.tenantId), eq(subscriptions.mode, c.mode), sql`lower(${subscriptions.customerEmail}) = ${c.customerEmail}`);

/** What the portal lists: the customer's subscriptions at this merchant and mode, newest first, with their plan's name and automatic collection. */
export async function portalSubscriptions(db: Db, customer: PortalCustomer) {
  const rows = await db.select().from(subscriptions).where(ofCustomer(customer)).orderBy(desc(subscriptions.createdAt)).limit(100);
  const views = await subscriptionViews(db, rows);
  const names = new Map(
    (await db.select({ id: plans.id, name: plans.name }).from(plans).where(eq(plans.tenantId, customer.tenantId))).map((p) => [p.id, p.name]),
  );
  // Automatic collection of each running subscription: on or off, and what to sign to turn it on (no chain read).
  const offers = await Promise.all(rows.map((r) => (r.status === 'canceled' ? null : collectionOffer(db, r))));
  return views.map((v, i) => ({ ...v, planName: names.get(v.planId) ?? v.planId, collection: offers[i] ?? null }));
}

/** The session's customer and one of their subscriptions (another's id is a 404, an expired session a 403). */
export async function portalSubscriptionOf(db: Db, secret: unknown, subscriptionId: string, now = new Date()) {
  const customer = await portalSession(db, secret, now);
  if (!customer) throw new ApiError('forbidden', 'This portal session has expired.');
  const [sub] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), ofCustomer(customer)));
  if (!sub) throw notFound('Subscription');
  return { customer, sub };
}

/**
 * The portal's "Cancel at period end": the session is checked again, and the subscription must be this customer's at
 * this merchant and mode (another's id is refused as if it did not exist). 401 without a valid session.
 */
export async function cancelFromPortal(db: Db, secret: unknown, subscriptionId: string, now = new Date()) {
  const { customer, sub } = await portalSubscriptionOf(db, secret, subscriptionId, now);
  return cancelSubscription(db, { id: sub.id, tenantId: customer.tenantId, mode: customer.mode }, { atPeriodEnd: true }, now);
}
