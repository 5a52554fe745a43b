import { eq, sql } from 'drizzle-orm';
import { invoices, type Invoice, type InvoiceStatus } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal } from '@/lib/money';

/** Not yet confirmed and not expired: new transfers still count towards the invoice. */
export const OPEN_STATUSES: InvoiceStatus[] = ['PENDING', 'DETECTED', 'PARTIALLY_PAID', 'OVERPAID'];
/** Not fully paid: these expire at expiresAt. */
export const UNPAID_STATUSES: InvoiceStatus[] = ['PENDING', 'PARTIALLY_PAID'];

/** The open status a received total gives. */
export function statusForReceived(received: Decimal.Value, expected: Decimal.Value): InvoiceStatus {
  const r = new Decimal(received);
  if (r.isZero()) return 'PENDING';
  const cmp = r.cmp(expected);
  return cmp < 0 ? 'PARTIALLY_PAID' : cmp === 0 ? 'DETECTED' : 'OVERPAID';
}

/** Sum of the invoice's canonical transfers (they are rows only while canonical). */
export async function receivedTotal(tx: Db, invoiceId: string): Promise<string> {
  const [row] = rowsOf<{ total: string }>(
    await tx.execute(sql`select coalesce(sum(amount), 0)::text as total from chain_transfers where invoice_id = ${invoiceId}`),
  );
  return row?.total ?? '0';
}

export async function lockInvoice(tx: Db, id: string): Promise<Invoice> {
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
  if (!row) throw new Error(`invoice ${id} not found`);
  return row;
}

export async function updateInvoice(tx: Db, id: string, patch: Partial<typeof invoices.$inferInsert>): Promise<Invoice> {
  const [row] = await tx
    .update(invoices)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(invoices.id, id))
    .returning();
  return row!;
}
