'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { approveRefundRequest, declineRefundRequest } from '@/lib/refunds/requests/decide-refund-request';
import { ApproveRefundRequestBody, DeclineRefundRequestBody } from '@/lib/refunds/requests/schemas';
import { createRefund } from '@/lib/refunds/create-refund';
import { creditHeldPayment } from '@/lib/payments/credit-held-payment';
import { refundHeldPayment } from '@/lib/refunds/refund-held-payment';
import { CreateRefundBody } from '@/lib/refunds/schemas';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';

/** The dashboard's refund: the API's function, with a withdrawal's permission and step-up (money leaves). */
export async function createRefundAction(invoiceId: string, input: unknown, stepUp?: { totpCode?: string }) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    await requireStepUp(ctx.db, ctx.user.id, stepUp?.totpCode);
    const refund = await createRefund(ctx.db, ctx.owner, String(invoiceId), CreateRefundBody.parse(input), userActor(ctx), prepareWithdrawalControls);
    revalidatePath(`/dashboard/invoices/${invoiceId}`);
    revalidatePath('/dashboard/balance');
    return refund;
  });
}

/** The owner refunds to the address the payer proposed (step-up: money leaves). */
export async function approveRefundRequestAction(invoiceId: string, requestId: string, input: unknown, stepUp?: { totpCode?: string }) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    await requireStepUp(ctx.db, ctx.user.id, stepUp?.totpCode);
    const row = await approveRefundRequest(
      ctx.db,
      ctx.owner,
      String(requestId),
      ApproveRefundRequestBody.parse(input),
      userActor(ctx),
      prepareWithdrawalControls,
    );
    revalidatePath(`/dashboard/invoices/${invoiceId}`);
    revalidatePath('/dashboard/balance');
    return row;
  });
}

/** The owner declines the payer's proposal; the reason is shown on the checkout. */
export async function declineRefundRequestAction(invoiceId: string, requestId: string, input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    const row = await declineRefundRequest(ctx.db, ctx.owner, String(requestId), DeclineRefundRequestBody.parse(input), userActor(ctx));
    revalidatePath(`/dashboard/invoices/${invoiceId}`);
    return row;
  });
}

/**
 * Sends a held payment back to its sender. No step-up, unlike a refund: the destination is fixed
 * (the sender the chain shows), so a hijacked session cannot redirect the money.
 */
export async function refundHeldPaymentAction(invoiceId: string, paymentId: string) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    const out = await refundHeldPayment(ctx.db, ctx.owner, { invoiceId: String(invoiceId), paymentId: String(paymentId) }, userActor(ctx));
    revalidatePath(`/dashboard/invoices/${invoiceId}`);
    return out;
  });
}

/**
 * Credits a held payment: counted towards the invoice (the invoice's token from another network) or to its own token's balance; nothing leaves.
 * The owner's: crediting decides the payer does not get it back (a member could otherwise pre-empt a refund).
 */
export async function creditHeldPaymentAction(invoiceId: string, paymentId: string) {
  return runAction(async () => {
    const ctx = await actionContext('held-payments:resolve');
    const out = await creditHeldPayment(ctx.db, ctx.owner, { invoiceId: String(invoiceId), paymentId: String(paymentId) }, userActor(ctx));
    revalidatePath(`/dashboard/invoices/${invoiceId}`);
    return out;
  });
}
