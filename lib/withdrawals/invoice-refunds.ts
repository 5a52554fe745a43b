import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { withdrawalView } from './view';

/**
 * An invoice's refunds (withdrawals with refundOfInvoiceId), oldest first, and
 * what they take from its refundable amount: every one not FAILED (a failed
 * refund's amount + fee came back to the balance, so it may be refunded again).
 */
export async function invoiceRefunds(db: Db, invoiceId: string) {
  const rows = await db.select().from(withdrawals).where(eq(withdrawals.refundOfInvoiceId, invoiceId)).orderBy(asc(withdrawals.createdAt));
  return rows.map(withdrawalView);
}

export async function refundedAmount(db: Db, invoiceId: string): Promise<string> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${withdrawals.amount}), 0)::text` })
    .from(withdrawals)
    .where(and(eq(withdrawals.refundOfInvoiceId, invoiceId), ne(withdrawals.status, 'FAILED')));
  return row!.sum;
}
