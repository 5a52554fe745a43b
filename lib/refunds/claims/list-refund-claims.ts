import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { refundClaims, refundRequests } from '@/db/schema';
import type { Db } from '@/lib/db';
import { pageMeta } from '@/lib/api/schemas';
import type { Mode } from '@/lib/mode';
import type { ListRefundClaimsInput } from './schemas';
import { refundClaimView } from './view';

/** GET /v1/refund-claims and the invoice page: one tenant and mode, newest first, paged; never the secret or its url. */
export async function listRefundClaims(db: Db, owner: { tenantId: string; mode: Mode }, q: ListRefundClaimsInput) {
  const conds: SQL[] = [eq(refundClaims.tenantId, owner.tenantId), eq(refundClaims.mode, owner.mode)];
  if (q.invoiceId) conds.push(eq(refundClaims.invoiceId, q.invoiceId));
  const where = and(...conds);
  const [rows, [total]] = await Promise.all([
    db
      .select({ claim: refundClaims, requestId: refundRequests.id })
      .from(refundClaims)
      .leftJoin(refundRequests, eq(refundRequests.claimId, refundClaims.id))
      .where(where)
      .orderBy(desc(refundClaims.createdAt), desc(refundClaims.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(refundClaims).where(where),
  ]);
  const now = new Date();
  return { data: rows.map((r) => refundClaimView(r.claim, r.requestId, now)), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}
