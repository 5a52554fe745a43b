import { and, count, desc, eq } from 'drizzle-orm';
import { subscriptions } from '@/db/schema';
import type { SubscriptionStatus } from '@/db/schema/subscriptions';
import { pageMeta } from '@/lib/api/schemas';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { subscriptionViews } from './load-subscription';

/** GET /v1/subscriptions: newest first, paged, one tenant and mode, optionally one status or plan. */
export async function listSubscriptions(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  q: { page: number; limit: number; status?: SubscriptionStatus; planId?: string },
) {
  const where = and(
    eq(subscriptions.tenantId, owner.tenantId),
    eq(subscriptions.mode, owner.mode),
    q.status ? eq(subscriptions.status, q.status) : undefined,
    q.planId ? eq(subscriptions.planId, q.planId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(subscriptions)
      .where(where)
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(subscriptions).where(where),
  ]);
  return { data: await subscriptionViews(db, rows), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}
