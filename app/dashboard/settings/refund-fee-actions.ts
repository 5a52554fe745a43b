'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { updateRefundNetworkFeePayer } from '@/lib/tenants/update-refund-network-fee-payer';

export async function setRefundNetworkFeePayerAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('settings:manage');
    const row = await updateRefundNetworkFeePayer(ctx.db, ctx.owner, userActor(ctx), input);
    revalidatePath('/dashboard/settings');
    return row;
  });
}
