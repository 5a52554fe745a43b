import { and, eq } from 'drizzle-orm';
import { chainTransfers, heldPayments, type HeldPayment } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { SCREENING_HOLD_MESSAGE } from './review-screening-hold';
import { applyTransfers } from './apply-transfers';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { heldPaymentEventData } from '@/lib/invoices/held-payment-view';
import { emitHeldPaymentEvent } from './record-held-payment';

/**
 * The merchant credits a held payment (POST /v1/invoices/:id/held-payments/:paymentId/credit,
 * or the dashboard). The invoice's token from another network becomes, in one transaction, a
 * payment of the invoice exactly as the `credit` policy would have recorded it (status moves and
 * events through applyTransfers; confirmed and swept on its own network). Another token cannot
 * count towards the invoice (its price differs): it is marked for a sweep of its own
 * (createHeldPaymentSettlements), and the balance of that token is credited, less the invoice fee,
 * when the sweep is done. After a failed send-back the money is already in the balance: crediting
 * then only records the decision. Anything but a held payment is a 409: never a second credit.
 */
export async function creditHeldPayment(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  where: { invoiceId: string; paymentId: string },
  actor: AuditActor | undefined,
) {
  return db.transaction(async (tx) => {
    const invoice = await getInvoiceOrThrow(tx, { id: where.invoiceId, ...owner }, { forUpdate: true });
    const [held] = await tx
      .select()
      .from(heldPayments)
      .where(and(eq(heldPayments.id, where.paymentId), eq(heldPayments.invoiceId, invoice.id)))
      .for('update');
    if (!held) throw notFound('Held payment');
    if (held.status !== 'held') throw new ApiError('invalid_state', `This payment is already ${held.status}.`);
    if (held.mismatch === 'screening') throw new ApiError('invalid_state', SCREENING_HOLD_MESSAGE);
    if (held.settlementId) {
      // A failed send-back left it held with its money already swept and in the balance (the withdrawal's
      // failure returned it): crediting only records the decision; counting it or sweeping again would credit twice.
      const [kept] = await tx
        .update(heldPayments)
        .set({ status: 'credited', refundFailureReason: null })
        .where(eq(heldPayments.id, held.id))
        .returning();
      if (actor) await audit(tx, actor, owner, invoice.id, held, { status: 'credited', creditedTo: `${held.token} balance (already there)` });
      await emitHeldPaymentEvent(tx, 'held_payment.credited', kept!, invoice);
      return heldPaymentEventData(kept!, invoice);
    }
    if (held.mismatch === 'token' || held.token !== invoice.token) {
      const [marked] = await tx.update(heldPayments).set({ status: 'credited', sweep: 'credit' }).where(eq(heldPayments.id, held.id)).returning();
      if (actor) await audit(tx, actor, owner, invoice.id, held, { status: 'credited', creditedTo: `${held.token} balance` });
      await emitHeldPaymentEvent(tx, 'held_payment.credited', marked!, invoice);
      return heldPaymentEventData(marked!, invoice);
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
    const [credited] = await tx.update(heldPayments).set({ status: 'credited' }).where(eq(heldPayments.id, held.id)).returning();
    if (actor) await audit(tx, actor, owner, invoice.id, held, { status: 'credited', transferId: payment!.id });
    await emitHeldPaymentEvent(tx, 'held_payment.credited', credited!, invoice);
    return heldPaymentEventData(credited!, invoice);
  });
}

function audit(
  tx: Db,
  actor: AuditActor,
  owner: { tenantId: string; mode: Mode },
  invoiceId: string,
  held: HeldPayment,
  after: Record<string, unknown>,
) {
  return recordAudit(tx, actor, {
    tenantId: owner.tenantId,
    mode: owner.mode,
    action: 'held_payment.credited',
    target: { type: 'invoice', id: invoiceId },
    before: { paymentId: held.id, status: 'held', chain: held.chain, token: held.token, amount: held.amount },
    after,
  });
}
