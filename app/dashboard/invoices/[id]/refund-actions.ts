'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { createRefund } from '@/lib/refunds/create-refund';
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
