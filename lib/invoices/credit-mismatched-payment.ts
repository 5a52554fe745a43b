import { and, eq } from 'drizzle-orm';
import { chainTransfers, mismatchedPayments } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { applyTransfers } from './apply-transfers';
import { getInvoiceOrThrow } from './get-invoice-or-throw';
import { mismatchedPaymentEventData } from './record-mismatched';

/**
 * The merchant counts a held payment of the invoice's token made on another
 * network (POST /v1/invoices/:id/mismatched-payments/:paymentId/credit, or the
 * dashboard): in one transaction it becomes a payment of the invoice, exactly as
 * the `credit` policy would have recorded it (status moves and events through
 * applyTransfers; confirmed and swept on its own network), and the held row is
 * marked credited. Another token cannot count towards the invoice (its price
 * differs): 409. Twice is a 409, never a second payment.
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
    if (held.mismatch === 'token' || held.token !== invoice.token) {
      throw new ApiError('invalid_state', `A ${held.token} payment cannot count towards a ${invoice.token} invoice.`);
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
    if (actor) {
      await recordAudit(tx, actor, {
        tenantId: owner.tenantId,
        mode: owner.mode,
        action: 'mismatched_payment.credited',
        target: { type: 'invoice', id: invoice.id },
        before: { paymentId: held.id, status: 'held', chain: held.chain, amount: held.amount },
        after: { status: 'credited', transferId: payment!.id },
      });
    }
    return mismatchedPaymentEventData(credited!, invoice);
  });
}
