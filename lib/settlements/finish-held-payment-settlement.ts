import { eq } from 'drizzle-orm';
import { heldPayments, tenants, type Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { createWithdrawal, type PrepareWithdrawalControls } from '@/lib/withdrawals/create-withdrawal';
import { givebackOptions } from '@/lib/withdrawals/giveback-options';

/** A refund of money the payer sent by mistake is not the merchant's withdrawal: their allow-list, limit and approval do not apply. */
export const sendBackControls: PrepareWithdrawalControls = async () => ({ hold: false, within: (d, run) => run(d) });

/**
 * The rest of a held payment's settlement (kind `mismatched` or `refund`), in
 * finishSettlement's transaction after the ledger credit: a refund becomes, at
 * once, a withdrawal to the sender on the payment's network and token of what was
 * credited (whole cents), with no percentage fee and the network fee paid as the
 * tenant chose (by the payer, from the amount, by default), which the
 * held row records; it stays `refunding` until that withdrawal completes or fails
 * (finishHeldPaymentRefund). The invoice itself is untouched: this money never
 * counted towards it.
 */
export async function finishHeldPaymentSettlement(tx: Db, s: Settlement) {
  if (s.kind !== 'refund') return;
  const [held] = await tx.select().from(heldPayments).where(eq(heldPayments.settlementId, s.id)).for('update');
  if (!held || held.status !== 'refunding' || !held.refundAddress) throw new Error(`settlement ${s.id}: no refunding payment`);
  const [tenant] = await tx
    .select({ withdrawalFeeRate: tenants.withdrawalFeeRate, payer: tenants.refundNetworkFeePayer })
    .from(tenants)
    .where(eq(tenants.id, s.tenantId));
  // Whole cents: a rest below a cent (6- and 18-decimal tokens) stays with the merchant.
  const amount = new Decimal(s.netAmount).toDecimalPlaces(2, Decimal.ROUND_DOWN);
  const withdrawal = await createWithdrawal(
    tx,
    { tenantId: s.tenantId, mode: s.mode, tenant: tenant! },
    { amount: amount.toFixed(2), destinationAddress: held.refundAddress, chain: held.chain, token: held.token },
    undefined,
    sendBackControls,
    // The sender's freeze list was read when the send-back was asked for; the lane reads it again before signing.
    { ...givebackOptions(tenant!.payer), freezeListAtSend: true },
  );
  // Still refunding: refunded once this withdrawal completes (finishHeldPaymentRefund, held_payment.refunded then).
  await tx.update(heldPayments).set({ withdrawalId: withdrawal.id }).where(eq(heldPayments.id, held.id));
}
