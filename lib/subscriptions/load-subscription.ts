import { and, desc, eq, inArray } from 'drizzle-orm';
import { plans, subscriptionPeriods, subscriptions, type Subscription } from '@/db/schema';
import { notFound } from '@/lib/api/errors';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import type { SubscriptionView } from './schemas';
import { subscriptionView } from './view';

/** Views of subscriptions with their plan's amount and latest period's invoice, in three queries whatever their number. */
export async function subscriptionViews(db: Db, rows: Subscription[]): Promise<SubscriptionView[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [planRows, periods] = await Promise.all([
    db
      .select({ id: plans.id, amount: plans.amount, priceCurrency: plans.priceCurrency })
      .from(plans)
      .where(inArray(plans.id, [...new Set(rows.map((r) => r.planId))])),
    db
      .selectDistinctOn([subscriptionPeriods.subscriptionId], { id: subscriptionPeriods.subscriptionId, invoiceId: subscriptionPeriods.invoiceId })
      .from(subscriptionPeriods)
      .where(inArray(subscriptionPeriods.subscriptionId, ids))
      .orderBy(subscriptionPeriods.subscriptionId, desc(subscriptionPeriods.periodStart)),
  ]);
  const amount = new Map(planRows.map((p) => [p.id, p]));
  const latest = new Map(periods.map((p) => [p.id, p.invoiceId]));
  return rows.map((r) => subscriptionView(r, amount.get(r.planId)!, latest.get(r.id) ?? null));
}

/** Load-and-authorize: another tenant's or the other mode's subscription is a 404, like a missing one. */
export async function getSubscriptionOrThrow(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, where.id), eq(subscriptions.tenantId, where.tenantId), eq(subscriptions.mode, where.mode)));
  if (!row) throw notFound('Subscription');
  return row;
}

/** GET /v1/subscriptions/:id. */
export async function getSubscription(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  const [view] = await subscriptionViews(db, [await getSubscriptionOrThrow(db, where)]);
  return view!;
}
