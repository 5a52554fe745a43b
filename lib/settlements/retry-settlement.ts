import { and, eq } from 'drizzle-orm';
import { settlements } from '@/db/schema';
import type { Db } from '@/lib/db';
import { lockInvoice, updateInvoice } from '@/lib/invoices/transitions';

/**
 * Console action: puts a failed settlement back in the queue with fresh
 * attempts; a FAILED payout invoice returns to PROCESSING_PAYOUT. Recorded
 * on-chain steps are resumed, not repeated.
 */
export async function retrySettlement(db: Db, settlementId: string) {
  return db.transaction(async (tx) => {
    const [s] = await tx
      .update(settlements)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date(), lockedUntil: null })
      .where(and(eq(settlements.id, settlementId), eq(settlements.status, 'failed')))
      .returning();
    if (!s) return null;
    const invoice = await lockInvoice(tx, s.invoiceId);
    if (s.kind === 'invoice' && invoice.status === 'FAILED') await updateInvoice(tx, invoice.id, { status: 'PROCESSING_PAYOUT' });
    return s;
  });
}
