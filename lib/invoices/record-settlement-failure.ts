import { eq } from 'drizzle-orm';
import { settlements } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { emitInvoiceEvent } from './emit-invoice-event';
import { lockInvoice, updateInvoice } from './transitions';

export interface RetryPolicy {
  maxAttempts: number;
  /** First retry delay; doubles per attempt. */
  backoffMs: number;
}

/**
 * A failed settlement attempt: retried later with exponential backoff, or
 * after `maxAttempts` marked failed with invoice.failed (a payout invoice moves
 * to FAILED). Recorded steps stay, so a retry from the console resumes them.
 */
export async function recordSettlementFailure(db: Db, settlementId: string, err: unknown, policy: RetryPolicy) {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  return db.transaction(async (tx) => {
    const [s] = await tx.select().from(settlements).where(eq(settlements.id, settlementId)).for('update');
    if (!s || s.status === 'completed' || s.status === 'failed') return s;
    if (s.attempts < policy.maxAttempts) {
      const delay = policy.backoffMs * 2 ** Math.max(0, s.attempts - 1);
      log.warn('settlement attempt failed; will retry', { settlementId, attempts: s.attempts, delayMs: delay, error: message });
      await tx
        .update(settlements)
        .set({ lastError: message, lockedUntil: null, nextAttemptAt: new Date(Date.now() + delay) })
        .where(eq(settlements.id, s.id));
      return s;
    }
    log.error('settlement failed after retries', { settlementId, attempts: s.attempts, error: message });
    await tx.update(settlements).set({ status: 'failed', lastError: message, lockedUntil: null }).where(eq(settlements.id, s.id));
    const invoice = await lockInvoice(tx, s.invoiceId);
    const row = s.kind === 'invoice' && invoice.status === 'PROCESSING_PAYOUT' ? await updateInvoice(tx, invoice.id, { status: 'FAILED' }) : invoice;
    await emitInvoiceEvent(tx, row, 'invoice.failed');
    return s;
  });
}
