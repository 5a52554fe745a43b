import { invoices, type Invoice } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitInvoiceEvent } from './emit-invoice-event';
import { toleranceOfTenantSql } from './invoice-row';

/**
 * Inserts an invoice built by invoiceRow and writes its invoice.created, in the
 * caller's transaction: for callers outside lib/invoices (exchange pay-ins),
 * which do not write the invoices table themselves.
 */
export async function insertInvoice(tx: Db, invoice: typeof invoices.$inferInsert): Promise<Invoice> {
  const [row] = await tx
    .insert(invoices)
    .values({ ...invoice, underpaymentTolerancePercent: toleranceOfTenantSql(invoice.tenantId) })
    .returning();
  await emitInvoiceEvent(tx, row!, 'invoice.created');
  return row!;
}
