'use server';

// The support console's server actions, called by its shared components: they live beside them because components/ imports nothing from app/ (docs/architecture.md).

import { revalidatePath } from 'next/cache';
import { signOut } from '@/lib/auth/next-auth';
import { revokeSession } from '@/lib/auth/sessions';
import { redirect } from 'next/navigation';
import { getSignedInStaff, supportActionContext } from '@/lib/console/context';
import { getDeliveryOutcomes } from '@/lib/console/get-delivery-outcomes';
import { recoverEndpoint } from '@/lib/console/recover-endpoint';
import { replayDeadLetters } from '@/lib/console/replay-dead-letters';
import { retryInvoiceSettlement } from '@/lib/console/retry-invoice-settlement';
import { retryWithdrawalSend } from '@/lib/console/retry-withdrawal-send';
import { RecoverBody, ReplayBody } from '@/lib/console/schemas';
import { setFeeRates } from '@/lib/console/set-fee-rates';
import { setTenantStatus } from '@/lib/console/set-tenant-status';
import { runAction } from '@/lib/dashboard/action-result';

// Every action re-checks the support role itself: a page's check does not protect a server action.

export async function replayDeadLettersAction(input: unknown) {
  return runAction(async () => {
    const ctx = await supportActionContext();
    const { deliveryIds } = ReplayBody.parse(input);
    const outcomes = await replayDeadLetters(ctx.db, ctx.actor, deliveryIds);
    revalidatePath('/console/dead-letters');
    return outcomes;
  });
}

export async function deliveryOutcomesAction(ids: unknown) {
  return runAction(async () => {
    const ctx = await supportActionContext();
    const list = Array.isArray(ids) ? ids.filter((i): i is string => typeof i === 'string') : [];
    return getDeliveryOutcomes(ctx.db, list);
  });
}

export async function recoverEndpointAction(input: unknown) {
  return runAction(async () => {
    const ctx = await supportActionContext();
    const { endpointId, since } = RecoverBody.parse(input);
    const r = await recoverEndpoint(ctx.db, ctx.actor, endpointId, since);
    revalidatePath('/console/dead-letters');
    return r;
  });
}

export async function retrySettlementAction(invoiceId: string) {
  return runAction(async () => {
    const ctx = await supportActionContext();
    const r = await retryInvoiceSettlement(ctx.db, ctx.actor, String(invoiceId));
    revalidatePath('/console/stuck');
    return r;
  });
}

export async function retryWithdrawalAction(withdrawalId: string) {
  return runAction(async () => {
    const ctx = await supportActionContext();
    const r = await retryWithdrawalSend(ctx.db, ctx.actor, String(withdrawalId));
    revalidatePath('/console/stuck');
    return r;
  });
}

export async function setFeeRatesAction(tenantId: string, input: unknown) {
  return runAction(async () => {
    const ctx = await supportActionContext();
    const t = await setFeeRates(ctx.db, ctx.actor, String(tenantId), input);
    revalidatePath(`/console/tenants/${t.id}`);
    return { invoiceFeeRate: t.invoiceFeeRate, withdrawalFeeRate: t.withdrawalFeeRate };
  });
}

export async function setTenantStatusAction(tenantId: string, input: unknown) {
  return runAction(async () => {
    const ctx = await supportActionContext();
    const t = await setTenantStatus(ctx.db, ctx.actor, String(tenantId), input);
    revalidatePath(`/console/tenants/${t.id}`);
    revalidatePath('/console/tenants');
    return { status: t.status };
  });
}

export async function consoleSignOutAction(): Promise<void> {
  const s = await getSignedInStaff();
  if (s) await revokeSession(s.db, s.sessionId);
  await signOut({ redirect: false });
  redirect('/sign-in');
}
