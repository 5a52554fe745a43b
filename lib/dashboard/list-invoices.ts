import { and, asc, count, desc, eq, gte, inArray, lt, or, type SQL } from 'drizzle-orm';
import { chainTransfers, invoices } from '@/db/schema';
import type { Db } from '@/lib/db';
import { pageMeta } from '@/lib/api/schemas';
import { invoiceView } from '@/lib/invoices/view';
import type { Mode } from '@/lib/tenants/mode';
import type { InvoiceFilters } from './invoice-filters';

const DAY_MS = 86_400_000;

/**
 * The dashboard's invoice table: /v1's filters (status, creation range) plus
 * one search box matching the id, the externalId or the deposit address.
 * Always scoped to the session's tenant and mode.
 */
export async function listDashboardInvoices(db: Db, owner: { tenantId: string; mode: Mode }, f: InvoiceFilters, limit = 20) {
  const conds: SQL[] = [eq(invoices.tenantId, owner.tenantId), eq(invoices.mode, owner.mode)];
  if (f.status) conds.push(eq(invoices.status, f.status));
  if (f.from) conds.push(gte(invoices.createdAt, new Date(`${f.from}T00:00:00Z`)));
  if (f.to) conds.push(lt(invoices.createdAt, new Date(new Date(`${f.to}T00:00:00Z`).getTime() + DAY_MS)));
  if (f.q) conds.push(or(eq(invoices.id, f.q), eq(invoices.externalId, f.q), eq(invoices.depositAddress, f.q.toLowerCase()))!);
  const where = and(...conds);
  const [rows, totals] = await Promise.all([
    db.select().from(invoices).where(where).orderBy(desc(invoices.createdAt), desc(invoices.id)).limit(limit).offset((f.page - 1) * limit),
    db.select({ total: count() }).from(invoices).where(where),
  ]);
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
  const total = Number(totals[0]?.total ?? 0);
  return { data: rows.map((r) => invoiceView(r, hashes.get(r.id) ?? [])), meta: pageMeta(total, f.page, limit) };
}
