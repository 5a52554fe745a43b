'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { createWithdrawal } from '@/lib/withdrawals/create-withdrawal';
import { getMaxWithdrawal } from '@/lib/withdrawals/get-max-withdrawal';
import { CreateWithdrawalBody, MaxWithdrawalQuery } from '@/lib/withdrawals/schemas';
import { precheckDestination } from '@/lib/destinations/check-destination';
import { getNetwork } from '@/lib/chain/network';
import { DEFAULT_RAIL } from '@/lib/config/rails';

export async function createWithdrawalAction(input: unknown, stepUp?: { totpCode?: string }) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    await requireStepUp(ctx.db, ctx.user.id, stepUp?.totpCode);
    const withdrawal = await createWithdrawal(ctx.db, ctx.owner, CreateWithdrawalBody.parse(input), userActor(ctx), prepareWithdrawalControls);
    revalidatePath('/dashboard/balance');
    revalidatePath('/dashboard');
    return withdrawal;
  });
}

/** The destination checks of POST /v1/withdrawals on the rail picked, run when the field loses focus (the form checks again when the rail changes). */
export async function validateAddressAction(address: string, chain: string) {
  return runAction(async () => {
    const ctx = await actionContext();
    const network = MaxWithdrawalQuery.shape.chain.unwrap().parse(chain);
    return { address: await precheckDestination(ctx.db, getNetwork(ctx.mode, network), String(address).trim()) };
  });
}

/** GET /v1/withdrawals/max's function, for the Max button (and the asset picked in "Pay from"). */
export async function maxWithdrawalAction(currency?: string, chain?: string) {
  return runAction(async () => {
    const ctx = await actionContext();
    const query = MaxWithdrawalQuery.parse({ currency, chain });
    return getMaxWithdrawal(ctx.db, ctx.owner, { ...query, currency: query.currency ?? DEFAULT_RAIL.token });
  });
}
