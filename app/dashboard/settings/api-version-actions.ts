'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { upgradeApiVersion } from '@/lib/tenants/upgrade-api-version';

/** The owner moves the account's API version forward (audited); keys and endpoints following it move with it. */
export async function upgradeApiVersionAction(input: { apiVersion?: unknown }) {
  return runAction(async () => {
    const ctx = await actionContext('settings:manage');
    const out = await upgradeApiVersion(ctx.db, ctx.owner, userActor(ctx), input);
    revalidatePath('/dashboard/settings');
    return out;
  });
}
