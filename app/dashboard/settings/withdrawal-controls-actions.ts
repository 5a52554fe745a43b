'use server';

import { revalidatePath } from 'next/cache';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { addAllowlistAddress } from '@/lib/withdrawal-controls/add-allowlist-address';
import { decideWithdrawalApproval } from '@/lib/withdrawal-controls/decide-withdrawal-approval';
import { removeAllowlistAddress } from '@/lib/withdrawal-controls/remove-allowlist-address';
import { updateWithdrawalControls, type OwnerSession } from '@/lib/withdrawal-controls/update-withdrawal-controls';

/** Owner only (settings:manage); every change also needs a TOTP code when 2FA is on (inside the lib functions). */
async function ownerSession(): Promise<OwnerSession & { db: Awaited<ReturnType<typeof actionContext>>['db'] }> {
  const ctx = await actionContext('settings:manage');
  return { db: ctx.db, owner: { tenantId: ctx.tenant.id, mode: ctx.mode }, user: ctx.user, actor: userActor(ctx) };
}

const done = () => {
  revalidatePath('/dashboard/settings');
  revalidatePath('/dashboard/balance');
};

export async function updateWithdrawalControlsAction(input: unknown) {
  return runAction(async () => {
    const s = await ownerSession();
    await updateWithdrawalControls(s.db, s, input);
    done();
    return { saved: true };
  });
}

export async function addAllowlistAddressAction(input: unknown) {
  return runAction(async () => {
    const s = await ownerSession();
    const row = await addAllowlistAddress(s.db, s, input);
    done();
    return { id: row.id, activeAt: row.activeAt.toISOString() };
  });
}

export async function removeAllowlistAddressAction(id: string, input: unknown) {
  return runAction(async () => {
    const s = await ownerSession();
    const out = await removeAllowlistAddress(s.db, s, id, input);
    done();
    return out;
  });
}

export async function decideWithdrawalAction(id: string, decision: 'approve' | 'reject', input: unknown) {
  return runAction(async () => {
    const s = await ownerSession();
    const out = await decideWithdrawalApproval(s.db, s, id, decision === 'reject' ? 'reject' : 'approve', input);
    done();
    return out;
  });
}
