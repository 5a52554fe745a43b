import { and, eq } from 'drizzle-orm';
import { invoices, heldPayments, type Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitHeldPaymentEvent } from '@/lib/payments/record-held-payment';

/**
 * A held payment's send-back ends with its withdrawal, in the withdrawal's final transaction (registered in
 * lib/payment-hooks.ts): completed, the payment is `refunded` (held_payment.refunded); failed, it is
 * `held` again with the reason (held_payment.refund_failed). The failed withdrawal returned amount + fee
 * to the balance, so the money is there now: settlementId stays set (never swept again), and the merchant may
 * send it back again (a new withdrawal at once) or credit it (refundHeldPayment, creditHeldPayment).
 */
export async function finishHeldPaymentRefund(tx: Db, w: Withdrawal): Promise<void> {
  if (w.status !== 'COMPLETED' && w.status !== 'FAILED') return;
  const [held] = await tx
    .select()
    .from(heldPayments)
    .where(and(eq(heldPayments.withdrawalId, w.id), eq(heldPayments.status, 'refunding')))
    .for('update');
  if (!held) return;
  const [row] = await tx
    .update(heldPayments)
    .set(
      w.status === 'COMPLETED'
        ? { status: 'refunded', refundFailureReason: null }
        : { status: 'held', refundFailureReason: `Sending it back failed: ${w.failureReason ?? 'the withdrawal failed'}`.slice(0, 500) },
    )
    .where(eq(heldPayments.id, held.id))
    .returning();
  const [invoice] = await tx.select({ chain: invoices.chain, token: invoices.token }).from(invoices).where(eq(invoices.id, held.invoiceId));
  await emitHeldPaymentEvent(tx, w.status === 'COMPLETED' ? 'held_payment.refunded' : 'held_payment.refund_failed', row!, invoice!);
}
