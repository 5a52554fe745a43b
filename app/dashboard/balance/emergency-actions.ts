'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { resolveExchangeEmergency, type ResolveEmergencyInput } from '@/lib/exchange/resolve-emergency';

/** The merchant's decision on an EMERGENCY exchange order (owner only); the input is validated strictly by resolveExchangeEmergency. */
export async function resolveEmergencyAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('withdrawals:create');
    const result = await resolveExchangeEmergency(ctx.db, ctx.owner, input as ResolveEmergencyInput, userActor(ctx));
    revalidatePath('/dashboard/balance');
    return result;
  });
}
