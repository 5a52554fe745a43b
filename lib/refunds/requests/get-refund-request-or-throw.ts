import { and, eq } from 'drizzle-orm';
import { refundRequests } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import { isId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';

/** A refund request of this tenant and mode; another tenant's, the other mode's or an unknown id is a 404. */
export async function getRefundRequestOrThrow(db: Db, where: { id: string; tenantId: string; mode: Mode }, opts: { forUpdate?: boolean } = {}) {
  if (!isId('refundRequest', where.id)) throw notFound('Refund request');
  const q = db
    .select()
    .from(refundRequests)
    .where(and(eq(refundRequests.id, where.id), eq(refundRequests.tenantId, where.tenantId), eq(refundRequests.mode, where.mode)));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('Refund request');
  return row;
}
