import { and, eq } from 'drizzle-orm';
import { chainTransfers, mismatchedPayments, type MismatchedPayment } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { applyTransfers } from './apply-transfers';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { mismatchedPaymentEventData } from '@/lib/invoices/held-payment-view';
import { emitMismatchedEvent } from './record-mismatched';

/**
 * The merchant credits a held payment (POST /v1/invoices/:id/mismatched-payments/:paymentId/credit,
 * or the dashboard). The invoice's token from another network becomes, in one transaction, a
 * payment of the invoice exactly as the `credit` policy would have recorded it (status moves and
 * events through applyTransfers; confirmed and swept on its own network). Another token cannot
 * count towards the invoice (its price differs): it is marked for a sweep of its own
 * (createMismatchedSettlements), and the balance of that token is credited, less the invoice fee,
 * when the sweep is done. After a failed send-back the money is already in the balance: crediting
 * then only records the decision. Anything but a held payment is a 409: never a second credit.
 */
export async function creditMismatchedPayment(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  where: { invoiceId: string; paymentId: string },
  actor: AuditActor | undefined,
) {
  return db.transaction(async (tx) => {
    const invoice = await getInvoiceOrThrow(tx, { id: where.invoiceId, ...owner }, { forUpdate: true });
    const [held] = await tx
      .select()
      .from(mismatchedPayments)
      .where(and(eq(mismatchedPayments.id, where.paymentId), eq(mismatchedPayments.invoiceId, invoice.id)))
      .for('update');
    if (!held) throw notFound('Mismatched payment');
    if (held.status !== 'held') throw new ApiError('invalid_state', `This payment is already ${held.status}.`);
    if (held.settlementId) {
      // A failed send-back left it held with its money already swept and in the balance (the withdrawal's
      // failure returned it): crediting only records the decision; counting it or sweeping again would credit twice.
      const [kept] = await tx
        .update(mismatchedPayments)
        .set({ status: 'credited', refundFailureReason: null })
        .where(eq(mismatchedPayments.id, held.id))
        .returning();
      if (actor) await audit(tx, actor, owner, invoice.id, held, { status: 'credited', creditedTo: `${held.token} balance (already there)` });
      await emitMismatchedEvent(tx, 'mismatched_payment.credited', kept!, invoice);
      return mismatchedPaymentEventData(kept!, invoice);
    }
    if (held.mismatch === 'token' || held.token !== invoice.token) {
      const [marked] = await tx
        .update(mismatchedPayments)
        .set({ status: 'credited', sweep: 'credit' })
        .where(eq(mismatchedPayments.id, held.id))
        .returning();
      if (actor) await audit(tx, actor, owner, invoice.id, held, { status: 'credited', creditedTo: `${held.token} balance` });
      await emitMismatchedEvent(tx, 'mismatched_payment.credited', marked!, invoice);
      return mismatchedPaymentEventData(marked!, invoice);
    }
    const [payment] = await tx
      .insert(chainTransfers)
      .values({
        id: newId('payment'),
        mode: held.mode,
        chainId: held.chainId,
        txHash: held.txHash,
        logIndex: held.logIndex,
        blockNumber: held.blockNumber,
        blockHash: held.blockHash,
        blockTime: held.blockTime,
        fromAddress: held.fromAddress,
        toAddress: held.toAddress,
        amount: held.amount,
        token: held.token,
        invoiceId: invoice.id,
        tenantId: invoice.tenantId,
      })
      .returning();
    await applyTransfers(tx, [payment!]);
    const [credited] = await tx.update(mismatchedPayments).set({ status: 'credited' }).where(eq(mismatchedPayments.id, held.id)).returning();
    if (actor) await audit(tx, actor, owner, invoice.id, held, { status: 'credited', transferId: payment!.id });
    await emitMismatchedEvent(tx, 'mismatched_payment.credited', credited!, invoice);
    return mismatchedPaymentEventData(credited!, invoice);
  });
}

function audit(
  tx: Db,
  actor: AuditActor,
  owner: { tenantId: string; mode: Mode },
  invoiceId: string,
  held: MismatchedPayment,
  after: Record<string, unknown>,
) {
  return recordAudit(tx, actor, {
    tenantId: owner.tenantId,
    mode: owner.mode,
    action: 'mismatched_payment.credited',
    target: { type: 'invoice', id: invoiceId },
    before: { paymentId: held.id, status: 'held', chain: held.chain, token: held.token, amount: held.amount },
    after,
  });
}
