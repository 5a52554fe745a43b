import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import type { InvoiceFilters } from './invoice-filters';
import { listDashboardInvoices } from './list-invoices';

/** Header → the invoice view's field (network is the view's `chain`). */
const COLUMNS = [
  'id',
  'status',
  'network',
  'token',
  'amountExpected',
  'amountReceived',
  'feeAmount',
  'amountCredited',
  'depositAddress',
  'externalId',
  'description',
  'txHashes',
  'createdAt',
  'expiresAt',
] as const;

/** RFC 4180 quoting; a leading =,+,-,@ is prefixed with ' so spreadsheets never evaluate merchant-supplied text. */
function cell(v: unknown): string {
  let s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(' ') : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The filtered list as CSV, all pages (capped at 50,000 rows), amounts as the exact decimal strings. */
export async function* invoicesCsv(db: Db, owner: { tenantId: string; mode: Mode }, filters: InvoiceFilters): AsyncGenerator<string> {
  yield `${COLUMNS.join(',')}\n`;
  for (let page = 1; page <= 100; page++) {
    const { data, meta } = await listDashboardInvoices(db, owner, { ...filters, page }, 500);
    for (const inv of data) yield `${COLUMNS.map((c) => cell(c === 'network' ? inv.chain : inv[c])).join(',')}\n`;
    if (page >= meta.lastPage) break;
  }
}
