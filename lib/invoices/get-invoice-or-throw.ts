import { and, eq } from 'drizzle-orm';
import { invoices } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';

/** Loads an invoice of this tenant and mode; another tenant's, the other mode's or an unknown id is a 404. */
export async function getInvoiceOrThrow(db: Db, where: { id: string; tenantId: string; mode: Mode }, opts: { forUpdate?: boolean } = {}) {
  const q = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, where.id), eq(invoices.tenantId, where.tenantId), eq(invoices.mode, where.mode)));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('Invoice');
  return row;
}
