import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { chainTransfers, heldPayments } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { familyOf } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { heldPaymentEventData } from '@/lib/invoices/held-payment-view';
import { applyTransfers } from './apply-transfers';
import { emitHeldPaymentEvent } from './record-held-payment';
import { recordDecision } from '@/lib/screening/record-decision';
import { screenAddress } from '@/lib/screening/screen-address';
import type { FullScreening } from '@/lib/screening/ask-adapters';
import { screenWithAdapters } from '@/lib/screening/screen-with-adapters';

/** What the merchant's credit and send-back answer for a payment held for review (409 invalid_state): no list details. */
export const SCREENING_HOLD_MESSAGE = 'This payment is held for review by the operator: it cannot be credited or sent back until that review.';

export const ReviewDecision = z.enum(['release', 'keep_frozen']);

/**
 * A compliance user's decision on a screening hold (the console's review queue). release: the payment is treated as
 * if it had never been held, in one transaction: on the invoice's own rail it counts towards the invoice as usual
 * (a chain_transfers row, applyTransfers: invoice.* events, the sweep), credited exactly once (the row is locked and
 * must still be held; the transfer is unique per log); on another network or token it becomes an ordinary held
 * payment for the merchant to credit or send back. keep_frozen: status `frozen`, never credited nor sent back.
 * Recorded in screening_decisions (who, list version) and the audit log. Support users without the compliance role: 403.
 */
export async function reviewScreeningHold(
  db: Db,
  reviewer: { user: { id: string; role: string }; actor: AuditActor },
  paymentId: string,
  decision: z.infer<typeof ReviewDecision>,
) {
  if (reviewer.user.role !== 'compliance') throw new ApiError('forbidden', 'Only a compliance user may release or keep a payment held for review.');
  // A release asks the configured screening again, before the transaction (no adapter's wait under its locks): the
  // sender is the same row's for good, so the answer holds for the locked row below.
  const released = decision === 'release' ? await screenForRelease(db, paymentId) : null;
  return db.transaction(async (tx) => {
    const [seen] = await tx.select().from(heldPayments).where(eq(heldPayments.id, paymentId));
    if (!seen) throw notFound('Held payment');
    const invoice = await getInvoiceOrThrow(tx, { id: seen.invoiceId, tenantId: seen.tenantId, mode: seen.mode }, { forUpdate: true });
    const [held] = await tx.select().from(heldPayments).where(eq(heldPayments.id, paymentId)).for('update');
    if (held!.mismatch !== 'screening' || held!.status !== 'held') {
      throw new ApiError('invalid_state', `This payment is not awaiting review (it is ${held!.status}).`);
    }
    const screening = released ?? screenAddress(familyOf(held!.chain), held!.fromAddress);
    let after: Record<string, unknown>;
    if (decision === 'keep_frozen') {
      await tx.update(heldPayments).set({ status: 'frozen' }).where(eq(heldPayments.id, held!.id));
      after = { status: 'frozen' };
    } else if (held!.token === invoice.token && held!.chainId === invoice.chainId) {
      const [payment] = await tx
        .insert(chainTransfers)
        .values({
          id: newId('payment'),
          mode: held!.mode,
          chainId: held!.chainId,
          txHash: held!.txHash,
          logIndex: held!.logIndex,
          blockNumber: held!.blockNumber,
          blockHash: held!.blockHash,
          blockTime: held!.blockTime,
          fromAddress: held!.fromAddress,
          toAddress: held!.toAddress,
          amount: held!.amount,
          token: held!.token,
          invoiceId: invoice.id,
          tenantId: invoice.tenantId,
        })
        .returning();
      await applyTransfers(tx, [payment!]);
      const [credited] = await tx.update(heldPayments).set({ status: 'credited' }).where(eq(heldPayments.id, held!.id)).returning();
      await emitHeldPaymentEvent(tx, 'held_payment.credited', credited!, invoice);
      after = { status: 'credited', transferId: payment!.id };
    } else {
      // Another token or network: what it would have been without the screening, for the merchant to resolve.
      const mismatch = held!.token !== invoice.token ? 'token' : 'network';
      await tx.update(heldPayments).set({ mismatch }).where(eq(heldPayments.id, held!.id));
      after = { status: 'held', mismatch };
    }
    await recordDecision(tx, screening, {
      tenantId: held!.tenantId,
      mode: held!.mode,
      subject: 'payer',
      path: 'payment',
      outcome: decision === 'release' ? 'released' : 'kept_frozen',
      targetId: held!.id,
      actorId: reviewer.user.id,
    });
    await recordAudit(tx, reviewer.actor, {
      tenantId: held!.tenantId,
      mode: held!.mode,
      action: decision === 'release' ? 'screening_hold.released' : 'screening_hold.kept_frozen',
      target: { type: 'invoice', id: invoice.id },
      before: { paymentId: held!.id, status: 'held', mismatch: 'screening', amount: held!.amount, listVersion: screening.listVersion },
      after,
    });
    const [row] = await tx.select().from(heldPayments).where(eq(heldPayments.id, held!.id));
    return heldPaymentEventData(row!, invoice);
  });
}

/**
 * The sender of a payment to release, screened as at detection (the SDN snapshot, then the enabled adapters): listed
 * by any now is refused (409: it stays held; keep it frozen), an adapter that cannot answer too (503: try again),
 * never taken as clean. A payment not found or not awaiting review is left to the transaction's own checks.
 */
async function screenForRelease(db: Db, paymentId: string): Promise<FullScreening | null> {
  const [held] = await db.select().from(heldPayments).where(eq(heldPayments.id, paymentId));
  if (!held || held.mismatch !== 'screening' || held.status !== 'held') return null;
  const s = await screenWithAdapters(familyOf(held.chain), held.fromAddress);
  if (s.outcome === 'error') {
    throw new ApiError(
      'service_unavailable',
      `The sender could not be screened (the ${s.by} screening service did not answer); it stays held, try again.`,
    );
  }
  if (s.outcome === 'listed') {
    throw new ApiError(
      'invalid_state',
      'The sender is on a sanctions list this gateway screens against: the payment cannot be released; it stays held.',
    );
  }
  return s;
}
