import { sql } from 'drizzle-orm';
import type { Invoice } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';

/**
 * What the invoice page's live updates follow (issue 45): the invoice's status and its refunds' (a refund's
 * COMPLETED shows as soon as the lane finishes it, not at the next reload). `key` changes whenever either does;
 * `refundsMoving` says a refund may still change, so the page keeps watching a paid-out invoice.
 */
export async function invoiceWatch(db: Db, invoice: Invoice) {
  const refunds = rowsOf<{ id: string; status: string }>(
    await db.execute(sql`select id, status from withdrawals where refund_of_invoice_id = ${invoice.id} order by id`),
  );
  return {
    status: invoice.status,
    updatedAt: invoice.updatedAt.toISOString(),
    key: [invoice.status, ...refunds.map((r) => `${r.id}:${r.status}`)].join(' '),
    refundsMoving: refunds.some((r) => r.status === 'PENDING' || r.status === 'PROCESSING'),
  };
}
