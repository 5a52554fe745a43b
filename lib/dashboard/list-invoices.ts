import type { Db } from '@/lib/db';
import { listInvoices } from '@/lib/invoices/list-invoices';
import type { Mode } from '@/lib/mode';
import type { InvoiceFilters } from './invoice-filters';

const DAY_MS = 86_400_000;

/**
 * The dashboard's invoice table: /v1's list with the form's filters mapped
 * onto it (whole days for the date range, one search box). Always scoped to
 * the session's tenant and mode.
 */
export async function listDashboardInvoices(db: Db, owner: { tenantId: string; mode: Mode }, f: InvoiceFilters, limit = 20) {
  return listInvoices(db, owner, {
    status: f.status,
    createdFrom: f.from ? `${f.from}T00:00:00.000Z` : undefined,
    createdTo: f.to ? new Date(new Date(`${f.to}T00:00:00Z`).getTime() + DAY_MS).toISOString() : undefined,
    search: f.q || undefined,
    page: f.page,
    limit,
  });
}
