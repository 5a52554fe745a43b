import { eq } from 'drizzle-orm';
import { settlements } from '@/db/schema';
import type { Db } from '@/lib/db';
import { isChainUnavailable } from '@/lib/chain/is-chain-unavailable';
import { log } from '@/lib/log';
import { emitInvoiceEvent } from '@/lib/invoices/emit-invoice-event';
import { lockInvoice, updateInvoice } from '@/lib/invoices/transitions';

export interface RetryPolicy {
  maxAttempts: number;
  /** First retry delay; doubles per attempt. */
  backoffMs: number;
}

/**
 * A failed settlement attempt: retried later with exponential backoff, or
 * after `maxAttempts` marked failed with invoice.failed (a payout invoice moves
 * to FAILED). Recorded steps stay, so a retry from the console resumes them.
 * A failure to read the chain (RPC down, timing out, a node behind) is retried
 * with the same backoff, capped at a minute, and never ends the settlement.
 */
export async function recordSettlementFailure(db: Db, settlementId: string, err: unknown, policy: RetryPolicy) {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  return db.transaction(async (tx) => {
    const [s] = await tx.select().from(settlements).where(eq(settlements.id, settlementId)).for('update');
    if (!s || s.status === 'completed' || s.status === 'failed') return s;
    // The chain could not be read: nothing is known to have failed, so this never uses up the attempts.
    const unreadable = isChainUnavailable(err);
    if (s.attempts < policy.maxAttempts || unreadable) {
      const delay = Math.min(policy.backoffMs * 2 ** Math.max(0, Math.min(s.attempts, policy.maxAttempts) - 1), unreadable ? 60_000 : Infinity);
      log.warn('settlement attempt failed; will retry', { settlementId, attempts: s.attempts, delayMs: delay, error: message });
      await tx
        .update(settlements)
        .set({ lastError: message, lockedUntil: null, nextAttemptAt: new Date(Date.now() + delay) })
        .where(eq(settlements.id, s.id));
      return s;
    }
    log.error('settlement failed after retries', { settlementId, attempts: s.attempts, error: message });
    // Failed for good: out of the TRON stake queue too (a console retry waits again to get back in).
    await tx
      .update(settlements)
      .set({ status: 'failed', lastError: message, lockedUntil: null, stakeWaitSince: null })
      .where(eq(settlements.id, s.id));
    const invoice = await lockInvoice(tx, s.invoiceId);
    // An early TRON sweep's invoice may still be CONFIRMED (issue 44): it fails as a payout would, so support sees it.
    const payout = invoice.status === 'PROCESSING_PAYOUT' || (s.sweptEarly && invoice.status === 'CONFIRMED');
    const row = s.kind === 'invoice' && payout ? await updateInvoice(tx, invoice.id, { status: 'FAILED' }) : invoice;
    await emitInvoiceEvent(tx, row, 'invoice.failed');
    return s;
  });
}
