import { and, eq } from 'drizzle-orm';
import { paymentLinks } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';

/** Load-and-authorize: another tenant's or the other mode's link is a 404, like a missing one. */
export async function getPaymentLinkOrThrow(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  const [row] = await db
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.id, where.id), eq(paymentLinks.tenantId, where.tenantId), eq(paymentLinks.mode, where.mode)));
  if (!row) throw notFound('Payment link');
  return row;
}
