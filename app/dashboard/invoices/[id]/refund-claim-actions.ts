'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { cancelRefundClaim } from '@/lib/refunds/claims/cancel-refund-claim';
import { createRefundClaim } from '@/lib/refunds/claims/create-refund-claim';
import { CreateRefundClaimBody } from '@/lib/refunds/claims/schemas';

/**
 * A refund claim link for the payer: a refund's permission (the owner's) and step-up, because whoever
 * holds the link says where the money goes (and the auto-refund policy may send it without a second look).
 * The url is in this answer only.
 */
export async function createRefundClaimAction(
  invoiceId: string,
  input: { amount?: unknown; expiresInHours?: unknown },
  stepUp?: { totpCode?: string },
) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    await requireStepUp(ctx.db, ctx.user.id, stepUp?.totpCode);
    // The form sends text: hours as a number when given (a non-number fails validation as such).
    const hours = input.expiresInHours === undefined || input.expiresInHours === '' ? undefined : Number(input.expiresInHours);
    const body = CreateRefundClaimBody.parse({
      amount: input.amount,
      invoiceId: String(invoiceId),
      ...(hours === undefined ? {} : { expiresInHours: hours }),
    });
    const made = await createRefundClaim(ctx.db, ctx.owner, body, userActor(ctx));
    revalidatePath(`/dashboard/invoices/${invoiceId}`);
    return made;
  });
}

/** Withdraws an unused link; it stops working at once. */
export async function cancelRefundClaimAction(invoiceId: string, claimId: string) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    const out = await cancelRefundClaim(ctx.db, ctx.owner, String(claimId), userActor(ctx));
    revalidatePath(`/dashboard/invoices/${invoiceId}`);
    return out;
  });
}
