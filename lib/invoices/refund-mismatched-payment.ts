import { and, eq, sql } from 'drizzle-orm';
import { invoices, mismatchedPayments } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { getRail, requireRail } from '@/lib/chain/network';
import type { Asset, ChainKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { refundNetworkFeePayer } from '@/lib/withdrawals/giveback-options';
import { networkTerms } from '@/lib/withdrawals/network-terms';
import { parseDestination } from '@/lib/withdrawals/parse-destination';
import { MIN_WITHDRAWAL } from '@/lib/withdrawals/schemas';
import { getInvoiceOrThrow } from './get-invoice-or-throw';
import { mismatchedPaymentEventData } from './record-mismatched';

/**
 * The merchant sends a held payment back to its sender
 * (POST /v1/invoices/:id/mismatched-payments/:paymentId/refund, or the dashboard). Marked here,
 * under the row lock, so a burst of requests refunds once (the rest are 409s). The money then
 * takes two steps, each exactly once: a sweep of its own off the deposit address on its network
 * (createMismatchedSettlements, no invoice fee: the gateway keeps nothing of money it returns),
 * and, with the ledger credit when that sweep finishes, a withdrawal of the same token on the same
 * network to the sender of what was sent, without a percentage fee, the network fee taken from it
 * or paid by the merchant as the tenant chose (finishMismatchedSettlement). The destination is always the sender the chain shows: a key that
 * may refund cannot redirect someone else's money.
 */
export async function refundMismatchedPayment(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  where: { invoiceId: string; paymentId: string },
  actor: AuditActor | undefined,
) {
  return db.transaction(async (tx) => {
    const invoice = await getInvoiceOrThrow(tx, { id: where.invoiceId, tenantId: owner.tenantId, mode: owner.mode }, { forUpdate: true });
    const [held] = await tx
      .select()
      .from(mismatchedPayments)
      .where(and(eq(mismatchedPayments.id, where.paymentId), eq(mismatchedPayments.invoiceId, invoice.id)))
      .for('update');
    if (!held) throw notFound('Mismatched payment');
    if (held.status !== 'held') throw new ApiError('invalid_state', `This payment is already ${held.status}.`);
    // No percentage fee (the money was never the merchant's); the network fee from the amount when the payer pays it.
    const rail = getRail(owner.mode, held.chain as ChainKey, held.token as Asset);
    const amount = new Decimal(held.amount).toDecimalPlaces(2, Decimal.ROUND_DOWN);
    const terms = rail && networkTerms(rail);
    const expected = terms && (await refundNetworkFeePayer(tx, owner.tenantId)) === 'payer' ? amount.minus(terms.networkFee) : amount;
    if (terms && (amount.lt(terms.minWithdrawal) || expected.lt(MIN_WITHDRAWAL))) {
      throw new ApiError(
        'invalid_state',
        `${held.amount} ${held.token} is too little to send back on ${terms.name}: the minimum is ${terms.minWithdrawal.toFixed(2)} ${held.token}` +
          `${terms.networkFee.gt(0) ? ` and the network fee ${terms.networkFee.toFixed(2)} ${held.token}` : ''}. Credit it instead.`,
      );
    }
    // The withdrawal's own checks, now rather than after the sweep: the rail still enabled, the sender not one of our wallets.
    try {
      parseDestination(requireRail(owner.mode, { chain: held.chain as ChainKey, token: held.token as Asset }, []), held.fromAddress);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      throw new ApiError('invalid_state', `Cannot send this payment back: ${e.message}`);
    }
    // Money sent to one of our deposit addresses would come back as a payment (the withdrawal lane refuses it too).
    const [ours] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(sql`${invoices.depositAddress} = ${held.fromAddress.toLowerCase()}`)
      .limit(1);
    if (ours) throw new ApiError('invalid_state', 'The sender is one of our deposit addresses; credit this payment instead.');
    const [marked] = await tx
      .update(mismatchedPayments)
      .set({ status: 'refunding', sweep: 'refund', refundAddress: held.fromAddress })
      .where(eq(mismatchedPayments.id, held.id))
      .returning();
    if (actor) {
      await recordAudit(tx, actor, {
        tenantId: owner.tenantId,
        mode: owner.mode,
        action: 'mismatched_payment.refunded',
        target: { type: 'invoice', id: invoice.id },
        before: { paymentId: held.id, status: 'held', chain: held.chain, token: held.token, amount: held.amount },
        after: { status: 'refunding', refundAddress: held.fromAddress, expectedAmount: expected.toFixed(2) },
      });
    }
    return mismatchedPaymentEventData(marked!, invoice);
  });
}
