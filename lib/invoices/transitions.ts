import { eq, sql } from 'drizzle-orm';
import { invoices, type Invoice, type InvoiceStatus } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal } from '@/lib/money';

/** Not yet confirmed and not expired: new transfers still count towards the invoice. */
export const OPEN_STATUSES: InvoiceStatus[] = ['PENDING', 'DETECTED', 'PARTIALLY_PAID', 'OVERPAID'];
/** Not fully paid: these expire at expiresAt. */
export const UNPAID_STATUSES: InvoiceStatus[] = ['PENDING', 'PARTIALLY_PAID'];

/** What an invoice's status is decided against: the expected amount and the tolerance frozen on it. */
export type PaidTerms = Pick<Invoice, 'amountExpected' | 'underpaymentTolerancePercent'>;

/** The least total that counts as paid: expected less the invoice's underpayment tolerance. */
export function paidThreshold(terms: PaidTerms): Decimal {
  const expected = new Decimal(terms.amountExpected);
  return expected.minus(expected.times(terms.underpaymentTolerancePercent).div(100));
}

/**
 * The open status a received total gives, and the shortfall accepted with it:
 * the one place the tolerance is applied. Short but within the tolerance is
 * DETECTED (paid) with `amountShortfall` = expected - received; below it,
 * PARTIALLY_PAID; above expected, OVERPAID.
 */
export function statusForReceived(received: Decimal.Value, terms: PaidTerms): { status: InvoiceStatus; amountShortfall: string } {
  const r = new Decimal(received);
  const none = { amountShortfall: '0' };
  if (r.isZero()) return { status: 'PENDING', ...none };
  const cmp = r.cmp(terms.amountExpected);
  if (cmp > 0) return { status: 'OVERPAID', ...none };
  if (cmp === 0) return { status: 'DETECTED', ...none };
  if (r.gte(paidThreshold(terms))) return { status: 'DETECTED', amountShortfall: new Decimal(terms.amountExpected).minus(r).toFixed() };
  return { status: 'PARTIALLY_PAID', ...none };
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
