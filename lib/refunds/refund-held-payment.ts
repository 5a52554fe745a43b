import { and, eq } from 'drizzle-orm';
import { formatAddress } from '@/lib/chain/deposit-keys';
import { heldPayments, settlements, type HeldPayment } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { requireRail } from '@/lib/chain/network';
import { parseDestination, refuseDepositAddress } from '@/lib/destinations/check-destination';
import { checkSendBackSender } from '@/lib/destinations/check-sender';
import { SCREENING_HOLD_MESSAGE } from '@/lib/payments/review-screening-hold';
import { refuseBlacklisted } from '@/lib/destinations/refuse-blacklisted';
import { refuseScreenedByAdapters } from '@/lib/destinations/refuse-screened-by-adapters';
import { familyOf } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { createWithdrawal } from '@/lib/withdrawals/create-withdrawal';
import { givebackOptions, refundNetworkFeePayer } from '@/lib/withdrawals/giveback-options';
import { networkTerms, sweepFeeOf } from '@/lib/withdrawals/network-terms';
import { MIN_WITHDRAWAL } from '@/lib/withdrawals/schemas';
import { sendBackControls } from '@/lib/settlements/finish-held-payment-settlement';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { heldPaymentEventData } from '@/lib/invoices/held-payment-view';

/**
 * The merchant sends a held payment back to its sender
 * (POST /v1/invoices/:id/held-payments/:paymentId/refund, or the dashboard). Marked here,
 * under the row lock, so a burst of requests refunds once (the rest are 409s). The money then
 * takes two steps, each exactly once: a sweep of its own off the deposit address on its network
 * (createHeldPaymentSettlements, no invoice fee: the gateway keeps nothing of money it returns),
 * and, with the ledger credit when that sweep finishes, a withdrawal of the same token on the same
 * network to the sender of what was sent, without a percentage fee, the network fee taken from it
 * or paid by the merchant as the tenant chose (finishHeldPaymentSettlement). It is `refunded` only when that
 * withdrawal completes; a failed one makes it `held` again with the reason (finishHeldPaymentRefund), its
 * money now in the balance, and a second send-back then creates the withdrawal at once. The destination is
 * always the sender the chain shows: a key that may refund cannot redirect someone else's money. So the
 * sender must be a person: none of our addresses, not a contract, not a known exchange hot wallet
 * (409 sender_not_refundable, pointing the merchant to a claim link; lib/destinations/check-sender.ts).
 */
export async function refundHeldPayment(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  where: { invoiceId: string; paymentId: string },
  actor: AuditActor | undefined,
) {
  // Checked first without locks: the sender's code is read from its chain (seconds at worst), never under a row lock.
  const seen = await heldPaymentOrThrow(db, owner, where);
  // The withdrawal's own checks, now rather than after the sweep: the rail still enabled, and the sender
  // none of our addresses on that network (wallet, token contract) nor any deposit address.
  let rail;
  try {
    rail = requireRail(owner.mode, { chain: seen.chain, token: seen.token }, []);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    throw new ApiError('invalid_state', `Cannot send this payment back: ${e.message}`);
  }
  // No percentage fee (the money was never the merchant's); the network fee from the amount when the payer pays it.
  const payer = await refundNetworkFeePayer(db, owner.tenantId);
  const terms = networkTerms(rail);
  // Its own sweep first: below the network's sweep minimum that costs the sweep fee, taken from it (plan-sweep.ts).
  // Swept already (an earlier send-back failed): what that sweep credited.
  const swept = seen.settlementId ? await sweptNet(db, seen.settlementId) : null;
  const sweepFee = swept ? new Decimal(0) : sweepFeeOf(rail, seen.amount);
  // Whole cents, as the withdrawal after the sweep sends (finishHeldPaymentSettlement).
  const amount = (swept ?? new Decimal(seen.amount).minus(sweepFee)).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  const expected = payer === 'payer' ? amount.minus(terms.networkFee) : amount;
  if (amount.lt(terms.minWithdrawal) || expected.lt(MIN_WITHDRAWAL)) {
    const costs = [
      ...(sweepFee.gt(0)
        ? [`its sweep costs ${sweepFee.toFixed(2)} ${seen.token} (under the sweep minimum of ${rail.sweepMinimum} ${seen.token})`]
        : []),
      `the minimum is ${terms.minWithdrawal.toFixed(2)} ${seen.token}`,
      ...(terms.networkFee.gt(0) ? [`the network fee ${terms.networkFee.toFixed(2)} ${seen.token}`] : []),
    ];
    throw new ApiError(
      'invalid_state',
      `${formatAmount(seen.amount)} ${seen.token} is too little to send back on ${terms.name}: ${costs.join(', ')}. Credit it instead.`,
    );
  }
  // The sender in its wire form (T… on TRON, EIP-55 otherwise): what the destination checks and the withdrawal take.
  const sender = formatAddress(seen.fromAddress);
  try {
    const checked = parseDestination(rail, sender, 'sender');
    await refuseDepositAddress(db, checked, 'sender');
    await refuseBlacklisted(rail, checked, 'sender');
    await refuseScreenedByAdapters(familyOf(rail.chain), checked, 'sender');
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (e.code === 'service_unavailable') throw e;
    throw new ApiError(
      'sender_not_refundable',
      `Cannot send this payment back: the sender ${sender} ${e.details?.[0]?.message ?? e.message}. Credit it instead.`,
    );
  }
  // Money sent back must reach a person: not an exchange's hot wallet, not a contract.
  await checkSendBackSender(rail, seen.fromAddress);

  return db.transaction(async (tx) => {
    const invoice = await getInvoiceOrThrow(tx, { id: where.invoiceId, tenantId: owner.tenantId, mode: owner.mode }, { forUpdate: true });
    const [held] = await tx.select().from(heldPayments).where(eq(heldPayments.id, seen.id)).for('update');
    if (held!.status !== 'held') throw new ApiError('invalid_state', `This payment is already ${held!.status}.`);
    let change: Partial<HeldPayment> = { status: 'refunding', sweep: 'refund', refundAddress: held!.fromAddress };
    if (held!.settlementId) {
      // An earlier send-back failed: the money was swept and is in the balance now, so it leaves at once, priced as the first try.
      const withdrawal = await createWithdrawal(
        tx,
        owner,
        { amount: amount.toFixed(2), destinationAddress: formatAddress(held!.fromAddress), chain: held!.chain, token: held!.token },
        undefined,
        sendBackControls,
        // Read above, outside the transaction; the lane reads it again before signing.
        { ...givebackOptions(payer), freezeListAtSend: true },
      );
      change = { status: 'refunding', refundAddress: held!.fromAddress, withdrawalId: withdrawal.id, refundFailureReason: null };
    }
    const [marked] = await tx.update(heldPayments).set(change).where(eq(heldPayments.id, held!.id)).returning();
    if (actor) {
      await recordAudit(tx, actor, {
        tenantId: owner.tenantId,
        mode: owner.mode,
        action: 'held_payment.refunded',
        target: { type: 'invoice', id: invoice.id },
        before: { paymentId: held!.id, status: 'held', chain: held!.chain, token: held!.token, amount: held!.amount },
        after: { status: 'refunding', refundAddress: held!.fromAddress, expectedAmount: expected.toFixed(2) },
      });
    }
    return heldPaymentEventData(marked!, invoice);
  });
}

/** What a held payment's own sweep credited (its amount less the sweep fee, if it was charged one). */
async function sweptNet(db: Db, settlementId: string) {
  const [s] = await db.select({ net: settlements.netAmount }).from(settlements).where(eq(settlements.id, settlementId));
  return new Decimal(s!.net);
}

/** The held payment of one of the tenant's invoices (404 otherwise), still held (409 otherwise). */
async function heldPaymentOrThrow(db: Db, owner: { tenantId: string; mode: Mode }, where: { invoiceId: string; paymentId: string }) {
  const invoice = await getInvoiceOrThrow(db, { id: where.invoiceId, tenantId: owner.tenantId, mode: owner.mode });
  const [held] = await db
    .select()
    .from(heldPayments)
    .where(and(eq(heldPayments.id, where.paymentId), eq(heldPayments.invoiceId, invoice.id)));
  if (!held) throw notFound('Held payment');
  if (held.status !== 'held') throw new ApiError('invalid_state', `This payment is already ${held.status}.`);
  // Never sent back to a screened sender: only the operator's review decides (docs/screening.md).
  if (held.mismatch === 'screening') throw new ApiError('invalid_state', SCREENING_HOLD_MESSAGE);
  return held;
}
