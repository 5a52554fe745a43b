import { eq, sql } from 'drizzle-orm';
import { invoices } from '@/db/schema';
import type { Db } from '@/lib/db';

/**
 * Records a pay-in invoice's exchange order status, in the caller's
 * transaction. `expireBy` pulls the expiry in (never later than it was);
 * `keepOpenUntil` pushes it out (never earlier): the exchange decides what
 * its statuses mean, the invoice only moves its own expiry.
 */
export async function setInvoicePayinStatus(
  tx: Db,
  invoiceId: string,
  status: string,
  opts: { expireBy?: Date; keepOpenUntil?: Date },
  now: Date,
): Promise<void> {
  await tx
    .update(invoices)
    .set({
      payinStatus: status,
      ...(opts.expireBy ? { expiresAt: sql`least(${invoices.expiresAt}, ${opts.expireBy.toISOString()}::timestamptz)` } : {}),
      ...(opts.keepOpenUntil ? { expiresAt: sql`greatest(${invoices.expiresAt}, ${opts.keepOpenUntil.toISOString()}::timestamptz)` } : {}),
      updatedAt: now,
    })
    .where(eq(invoices.id, invoiceId));
}
