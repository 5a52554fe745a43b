import { and, eq } from 'drizzle-orm';
import { withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';

/** A withdrawal of this tenant and mode; anything else is a 404. */
export async function getWithdrawalOrThrow(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  const [row] = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.id, where.id), eq(withdrawals.tenantId, where.tenantId), eq(withdrawals.mode, where.mode)));
  if (!row) throw notFound('Withdrawal');
  return row;
}
