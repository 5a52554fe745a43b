import { and, eq } from 'drizzle-orm';
import { invoices, mismatchedPayments, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitMismatchedEvent } from '@/lib/payments/record-mismatched';

/**
 * A held payment's send-back ends with its withdrawal, in the withdrawal's final transaction (registered in
 * lib/payment-hooks.ts): completed, the payment is `refunded` (mismatched_payment.refunded); failed, it is
 * `held` again with the reason (mismatched_payment.refund_failed). The failed withdrawal returned amount + fee
 * to the balance, so the money is there now: settlementId stays set (never swept again), and the merchant may
 * send it back again (a new withdrawal at once) or credit it (refundMismatchedPayment, creditMismatchedPayment).
 */
export async function finishHeldPaymentRefund(tx: Db, w: Withdrawal): Promise<void> {
  if (w.status !== 'COMPLETED' && w.status !== 'FAILED') return;
  const [held] = await tx
    .select()
    .from(mismatchedPayments)
    .where(and(eq(mismatchedPayments.withdrawalId, w.id), eq(mismatchedPayments.status, 'refunding')))
    .for('update');
  if (!held) return;
  const [row] = await tx
    .update(mismatchedPayments)
    .set(
      w.status === 'COMPLETED'
        ? { status: 'refunded', refundFailureReason: null }
        : { status: 'held', refundFailureReason: `Sending it back failed: ${w.failureReason ?? 'the withdrawal failed'}`.slice(0, 500) },
    )
    .where(eq(mismatchedPayments.id, held.id))
    .returning();
  const [invoice] = await tx.select({ chain: invoices.chain, token: invoices.token }).from(invoices).where(eq(invoices.id, held.invoiceId));
  await emitMismatchedEvent(tx, w.status === 'COMPLETED' ? 'mismatched_payment.refunded' : 'mismatched_payment.refund_failed', row!, invoice!);
}
