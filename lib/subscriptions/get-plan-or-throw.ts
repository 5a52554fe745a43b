import { and, eq } from 'drizzle-orm';
import { plans } from '@/db/schema';
import { notFound } from '@/lib/api/errors';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';

/** Load-and-authorize: another tenant's or the other mode's plan is a 404, like a missing one. */
export async function getPlanOrThrow(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  const [row] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.id, where.id), eq(plans.tenantId, where.tenantId), eq(plans.mode, where.mode)));
  if (!row) throw notFound('Plan');
  return row;
}
