import { and, count, desc, eq } from 'drizzle-orm';
import { withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { pageMeta } from '@/lib/api/schemas';
import type { Mode } from '@/lib/mode';
import { withdrawalView } from './view';

export async function listWithdrawals(db: Db, owner: { tenantId: string; mode: Mode }, q: { page: number; limit: number }) {
  const where = and(eq(withdrawals.tenantId, owner.tenantId), eq(withdrawals.mode, owner.mode));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(withdrawals)
      .where(where)
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: count() }).from(withdrawals).where(where),
  ]);
  return { data: rows.map(withdrawalView), meta: pageMeta(Number(total!.n), q.page, q.limit) };
}
