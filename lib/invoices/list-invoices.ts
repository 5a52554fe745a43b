import { and, asc, count, desc, eq, gte, inArray, lt, or, type SQL } from 'drizzle-orm';
import { chainTransfers, invoices } from '@/db/schema';
import type { Db } from '@/lib/db';
import { pageMeta } from '@/lib/api/schemas';
import type { Mode } from '@/lib/mode';
import type { z } from 'zod';
import type { ListInvoicesQuery } from './schemas';
import { invoiceView } from './view';

/**
 * /v1's filters, plus `search` for the dashboard's search box (an exact id,
 * externalId, deposit address or payment link id), so the API and the dashboard list the same way.
 */
export type InvoiceListFilters = z.output<typeof ListInvoicesQuery> & { search?: string };

/** GET /v1/invoices and the dashboard's table: newest first, paged, always scoped to one tenant and mode. */
export async function listInvoices(db: Db, owner: { tenantId: string; mode: Mode }, q: InvoiceListFilters) {
  const conds: SQL[] = [eq(invoices.tenantId, owner.tenantId), eq(invoices.mode, owner.mode)];
  if (q.status) conds.push(eq(invoices.status, q.status));
  if (q.externalId) conds.push(eq(invoices.externalId, q.externalId));
  if (q.paymentLinkId) conds.push(eq(invoices.paymentLinkId, q.paymentLinkId));
  if (q.createdFrom) conds.push(gte(invoices.createdAt, new Date(q.createdFrom)));
  if (q.createdTo) conds.push(lt(invoices.createdAt, new Date(q.createdTo)));
  if (q.search) {
    const s = q.search;
    conds.push(or(eq(invoices.id, s), eq(invoices.externalId, s), eq(invoices.depositAddress, s.toLowerCase()), eq(invoices.paymentLinkId, s))!);
  }
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
      .where(
        inArray(
          chainTransfers.invoiceId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(chainTransfers.blockNumber), asc(chainTransfers.logIndex));
    for (const t of transfers) {
      const list = hashes.get(t.invoiceId) ?? [];
      if (!list.includes(t.txHash)) list.push(t.txHash);
      hashes.set(t.invoiceId, list);
    }
  }
  return { data: rows.map((r) => invoiceView(r, hashes.get(r.id) ?? [])), meta: pageMeta(Number(total), q.page, q.limit) };
}
