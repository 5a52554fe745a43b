'use server';

import { revalidatePath } from 'next/cache';
import QRCode from 'qrcode';
import { inviteMember, removeMember, revokeInvitation } from '@/lib/auth/invitations';
import { confirmTotpEnrollment, disableTotp, regenerateRecoveryCodes, startTotpEnrollment } from '@/lib/auth/two-factor';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { env } from '@/lib/env';
import { updateTenantName } from '@/lib/tenants/update-tenant-name';
import { updateAutoRefundPolicy } from '@/lib/withdrawal-controls/update-auto-refund-policy';
import { updateWrongNetworkPolicy } from '@/lib/tenants/update-wrong-network-policy';
import { updateTenantRails } from '@/lib/tenants/update-tenant-rails';
import { updateUnderpaymentTolerance } from '@/lib/tenants/update-underpayment-tolerance';
import { revealPostbackSecret } from '@/lib/webhooks/reveal-postback-secret';
import { rotatePostbackSecret } from '@/lib/webhooks/rotate-postback-secret';

export async function renameTenantAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('settings:manage');
    const row = await updateTenantName(ctx.db, ctx.tenant.id, input);
    revalidatePath('/dashboard', 'layout');
    return row;
  });
}

export async function setUnderpaymentToleranceAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('settings:manage');
    const row = await updateUnderpaymentTolerance(ctx.db, ctx.owner, userActor(ctx), input);
    revalidatePath('/dashboard/settings');
    return { underpaymentTolerancePercent: row.underpaymentTolerancePercent };
  });
}

export async function setAutoRefundPolicyAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('settings:manage');
    const row = await updateAutoRefundPolicy(ctx.db, ctx.owner, userActor(ctx), input);
    revalidatePath('/dashboard/settings');
    return row;
  });
}

export async function setWrongNetworkPolicyAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('settings:manage');
    const row = await updateWrongNetworkPolicy(ctx.db, ctx.owner, userActor(ctx), input);
    revalidatePath('/dashboard/settings');
    return row;
  });
}

export async function setTenantRailsAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('settings:manage');
    const row = await updateTenantRails(ctx.db, ctx.owner, userActor(ctx), input);
    revalidatePath('/dashboard/settings');
    return row;
  });
}

export async function revealPostbackSecretAction() {
  return runAction(async () => {
    const ctx = await actionContext('secrets:reveal');
    const out = await revealPostbackSecret(ctx.db, ctx.owner);
    revalidatePath('/dashboard/settings');
    return out;
  });
}

export async function rotatePostbackSecretAction() {
  return runAction(async () => {
    const ctx = await actionContext('secrets:reveal');
    const out = await rotatePostbackSecret(ctx.db, ctx.owner, { graceHours: 24 });
    revalidatePath('/dashboard/settings');
    return out;
  });
}

export async function inviteMemberAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('team:manage');
    const inv = await inviteMember(ctx.db, { tenantId: ctx.tenant.id, userId: ctx.user.id }, input);
    revalidatePath('/dashboard/settings');
    const base = env().PUBLIC_BASE_URL?.replace(/\/$/, '') ?? '';
    return { email: inv.email, link: `${base}/invite/${inv.token}`, expiresAt: inv.expiresAt };
  });
}

export async function revokeInvitationAction(id: string) {
  return runAction(async () => {
    const ctx = await actionContext('team:manage');
    await revokeInvitation(ctx.db, { id, tenantId: ctx.tenant.id });
    revalidatePath('/dashboard/settings');
    return null;
  });
}

export async function removeMemberAction(userId: string) {
  return runAction(async () => {
    const ctx = await actionContext('team:manage');
    await removeMember(ctx.db, { userId, tenantId: ctx.tenant.id });
    revalidatePath('/dashboard/settings');
    return null;
  });
}

export async function startTotpAction() {
  return runAction(async () => {
    const ctx = await actionContext();
    const { secret, uri } = await startTotpEnrollment(ctx.db, ctx.user.id);
    return { secret, qrSvg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
  });
}

export async function confirmTotpAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext();
    const out = await confirmTotpEnrollment(ctx.db, ctx.user.id, input);
    revalidatePath('/dashboard/settings');
    return out;
  });
}

export async function disableTotpAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext();
    const out = await disableTotp(ctx.db, ctx.user.id, input);
    revalidatePath('/dashboard/settings');
    return out;
  });
}

export async function regenerateRecoveryCodesAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext();
    return regenerateRecoveryCodes(ctx.db, ctx.user.id, input);
  });
}
