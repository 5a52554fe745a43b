import { and, count, desc, eq } from 'drizzle-orm';
import { paymentLinks } from '@/db/schema';
import type { Db } from '@/lib/db';
import { pageMeta } from '@/lib/api/schemas';
import type { Mode } from '@/lib/mode';
import { linkCounts, paymentLinkView } from './view';

/** GET /v1/payment-links and the dashboard: newest first, paged, one tenant and mode. */
export async function listPaymentLinks(db: Db, owner: { tenantId: string; mode: Mode }, q: { page: number; limit: number }) {
  const where = and(eq(paymentLinks.tenantId, owner.tenantId), eq(paymentLinks.mode, owner.mode));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(paymentLinks)
      .where(where)
      .orderBy(desc(paymentLinks.createdAt), desc(paymentLinks.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(paymentLinks).where(where),
  ]);
  const counts = await linkCounts(
    db,
    rows.map((r) => r.id),
  );
  return { data: rows.map((r) => paymentLinkView(r, counts.get(r.id)!)), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}
