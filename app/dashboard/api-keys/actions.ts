'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { revokeApiKey } from '@/lib/api-keys/revoke-api-key';
import { CreateApiKeyBody, UpdateApiKeyBody } from '@/lib/api-keys/schemas';
import { updateApiKey } from '@/lib/api-keys/update-api-key';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';

/** The key is created in the header's mode; a `mode` sent by the client is ignored. */
export async function createKeyAction(input: unknown, stepUp?: { totpCode?: string }) {
  return runAction(async () => {
    const ctx = await actionContext('keys:manage');
    await requireStepUp(ctx.db, ctx.user.id, stepUp?.totpCode);
    const { mode: _ignored, ...body } = CreateApiKeyBody.parse(input);
    const created = await createApiKey(ctx.db, { tenantId: ctx.tenant.id, mode: ctx.mode, ...body }, userActor(ctx));
    revalidatePath('/dashboard/api-keys');
    return created;
  });
}

export async function updateKeyAction(id: string, input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('keys:manage');
    const view = await updateApiKey(ctx.db, { id, tenantId: ctx.tenant.id, mode: ctx.mode }, UpdateApiKeyBody.parse(input));
    revalidatePath('/dashboard/api-keys');
    return view;
  });
}

export async function revokeKeyAction(id: string) {
  return runAction(async () => {
    const ctx = await actionContext('keys:manage');
    const view = await revokeApiKey(ctx.db, { id, tenantId: ctx.tenant.id, mode: ctx.mode }, userActor(ctx));
    revalidatePath('/dashboard/api-keys');
    return view;
  });
}
