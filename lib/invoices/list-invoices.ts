import { and, asc, count, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import { chainTransfers, invoices } from '@/db/schema';
import type { Db } from '@/lib/db';
import { pageMeta } from '@/lib/api/schemas';
import type { Mode } from '@/lib/tenants/mode';
import type { z } from 'zod';
import type { ListInvoicesQuery } from './schemas';
import { invoiceView } from './view';

/** GET /v1/invoices: newest first, paged, filtered by status, externalId and creation time. */
export async function listInvoices(db: Db, owner: { tenantId: string; mode: Mode }, q: z.output<typeof ListInvoicesQuery>) {
  const conds: SQL[] = [eq(invoices.tenantId, owner.tenantId), eq(invoices.mode, owner.mode)];
  if (q.status) conds.push(eq(invoices.status, q.status));
  if (q.externalId) conds.push(eq(invoices.externalId, q.externalId));
  if (q.createdFrom) conds.push(gte(invoices.createdAt, new Date(q.createdFrom)));
  if (q.createdTo) conds.push(lt(invoices.createdAt, new Date(q.createdTo)));
  const where = and(...conds);
  const [rows, [{ total }]] = (await Promise.all([
    db
      .select()
      .from(invoices)
      .where(where)
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ total: count() }).from(invoices).where(where),
  ])) as [(typeof invoices.$inferSelect)[], [{ total: number }]];
  const hashes = new Map<string, string[]>();
  if (rows.length) {
    const transfers = await db
      .select({ invoiceId: chainTransfers.invoiceId, txHash: chainTransfers.txHash })
      .from(chainTransfers)
      .where(inArray(chainTransfers.invoiceId, rows.map((r) => r.id)))
      .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex));
    for (const t of transfers) {
      const list = hashes.get(t.invoiceId) ?? [];
      if (!list.includes(t.txHash)) list.push(t.txHash);
      hashes.set(t.invoiceId, list);
    }
  }
  return { data: rows.map((r) => invoiceView(r, hashes.get(r.id) ?? [])), meta: pageMeta(Number(total), q.page, q.limit) };
}
