import { and, count, desc, eq } from 'drizzle-orm';
import { plans } from '@/db/schema';
import { pageMeta } from '@/lib/api/schemas';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { planView } from './view';

/** GET /v1/plans: newest first, paged, one tenant and mode. */
export async function listPlans(db: Db, owner: { tenantId: string; mode: Mode }, q: { page: number; limit: number }) {
  const where = and(eq(plans.tenantId, owner.tenantId), eq(plans.mode, owner.mode));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(plans)
      .where(where)
      .orderBy(desc(plans.createdAt), desc(plans.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(plans).where(where),
  ]);
  return { data: rows.map(planView), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}
