'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { createExchangeWithdrawal } from '@/lib/exchange/create-exchange-withdrawal';
import { getPrice } from '@/lib/exchange/get-price';
import { ExchangeWithdrawalBody, PairBody } from '@/lib/exchange/schemas';

/** The live quote of POST /v1/withdrawals/exchange/price. */
export async function exchangeQuoteAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext();
    return (await getPrice(ctx.db, ctx.owner, PairBody.parse(input))).data;
  });
}

/** POST /v1/withdrawals/exchange/withdrawal's function: order, balance debit and USDT transfer to the exchange. */
export async function exchangeWithdrawAction(input: unknown, stepUp?: { totpCode?: string }) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    await requireStepUp(ctx.db, ctx.user.id, stepUp?.totpCode);
    const result = await createExchangeWithdrawal(ctx.db, ctx.owner, ExchangeWithdrawalBody.parse(input), userActor(ctx));
    revalidatePath('/dashboard/balance');
    return result.data;
  });
}
