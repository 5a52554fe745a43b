import { and, count, desc, eq } from 'drizzle-orm';
import { payouts } from '@/db/schema';
import { isoOrNull, pageMeta } from '@/lib/api/schemas';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';

/** GET /v1/payouts: the tenant's payouts of the key's mode, newest first (items: GET /v1/payouts/:id). */
export async function listPayouts(db: Db, owner: { tenantId: string; mode: Mode }, q: { page: number; limit: number }) {
  const where = and(eq(payouts.tenantId, owner.tenantId), eq(payouts.mode, owner.mode));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(payouts)
      .where(where)
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(payouts).where(where),
  ]);
  return {
    data: rows.map((p) => ({
      id: p.id,
      status: p.status,
      itemCount: p.itemCount,
      createdAt: p.createdAt.toISOString(),
      completedAt: isoOrNull(p.completedAt),
    })),
    meta: pageMeta(Number(total!.n), q.page, q.limit),
  };
}
