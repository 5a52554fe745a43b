import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { refundRequests } from '@/db/schema';
import type { Db } from '@/lib/db';
import { pageMeta } from '@/lib/api/schemas';
import type { Mode } from '@/lib/mode';
import type { ListRefundRequestsInput } from './schemas';
import { refundRequestView } from './view';

/** GET /v1/refund-requests and the dashboard: one tenant and mode, newest first, paged, by status or invoice. */
export async function listRefundRequests(db: Db, owner: { tenantId: string; mode: Mode }, q: ListRefundRequestsInput) {
  const conds: SQL[] = [eq(refundRequests.tenantId, owner.tenantId), eq(refundRequests.mode, owner.mode)];
  if (q.status) conds.push(eq(refundRequests.status, q.status));
  if (q.invoiceId) conds.push(eq(refundRequests.invoiceId, q.invoiceId));
  const where = and(...conds);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(refundRequests)
      .where(where)
      .orderBy(desc(refundRequests.createdAt), desc(refundRequests.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(refundRequests).where(where),
  ]);
  return { data: rows.map(refundRequestView), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}
