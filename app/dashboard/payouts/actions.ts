'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { createPayout } from '@/lib/payouts/create-payout';
import { decidePayoutApproval } from '@/lib/payouts/decide-payout-approval';
import { getPayout } from '@/lib/payouts/get-payout';
import { previewPayout } from '@/lib/payouts/preview-payout';
import { CreatePayoutBody } from '@/lib/payouts/schemas';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';

/** Every row through POST /v1/payouts' checks, nothing written (owner only: it reads screening and the allow-list). */
export async function previewPayoutAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    return previewPayout(ctx.db, ctx.owner, input, userActor(ctx), prepareWithdrawalControls);
  });
}

/** The ONE confirmation: step-up when 2FA is on, then createPayout (all rows checked again, all or nothing). */
export async function createPayoutAction(input: unknown, stepUp?: { totpCode?: string }) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    await requireStepUp(ctx.db, ctx.user.id, stepUp?.totpCode);
    const payout = await createPayout(ctx.db, ctx.owner, CreatePayoutBody.parse(input), userActor(ctx), prepareWithdrawalControls);
    revalidatePath('/dashboard/payouts');
    revalidatePath('/dashboard/balance');
    return payout;
  });
}

/** The live view the progress table polls (anyone of the tenant may read). */
export async function getPayoutAction(id: string) {
  return runAction(async () => {
    const ctx = await actionContext();
    return getPayout(ctx.db, ctx.owner, String(id));
  });
}

/** The owner's one decision on a payout held above the approval threshold (a key's batch). */
export async function decidePayoutAction(id: string, decision: 'approve' | 'reject', input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('settings:manage');
    const s = { owner: { tenantId: ctx.tenant.id, mode: ctx.mode }, user: ctx.user, actor: userActor(ctx) };
    const payout = await decidePayoutApproval(ctx.db, s, id, decision === 'reject' ? 'reject' : 'approve', input);
    revalidatePath('/dashboard/payouts');
    return payout;
  });
}
