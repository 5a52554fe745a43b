'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { createPortalSession } from '@/lib/portal/create-portal-session';
import { cancelSubscription } from '@/lib/subscriptions/cancel-subscription';
import { createPlan } from '@/lib/subscriptions/create-plan';
import { createSubscription } from '@/lib/subscriptions/create-subscription';
import { planBodyOfForm } from '@/lib/subscriptions/plan-form-input';
import { CancelSubscriptionBody, CreatePlanBody, CreatePortalSessionBody, CreateSubscriptionBody } from '@/lib/subscriptions/schemas';

// The API's lib functions and zod bodies; tenant and mode come from the session and the header's mode, never the form.
// Plans are prices (the owner's, as payment links); subscribing, cancelling and the portal link are members' daily work.

/** The plan form: priced in the rail's token or in a fiat currency ("Price in", planBodyOfForm). */
export async function createPlanAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('plans:manage');
    const plan = await createPlan(ctx.db, ctx.owner, CreatePlanBody.parse(planBodyOfForm(input)));
    revalidatePath('/dashboard/subscriptions');
    return plan;
  });
}

export async function createSubscriptionAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('subscriptions:manage');
    const sub = await createSubscription(ctx.db, ctx.owner, CreateSubscriptionBody.parse(input));
    revalidatePath('/dashboard/subscriptions');
    return sub;
  });
}

export async function cancelSubscriptionAction(id: string, input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('subscriptions:manage');
    const sub = await cancelSubscription(
      ctx.db,
      { id: String(id), tenantId: ctx.owner.tenantId, mode: ctx.owner.mode },
      CancelSubscriptionBody.parse(input),
    );
    revalidatePath('/dashboard/subscriptions');
    return sub;
  });
}

/** E-mails the customer a one-time portal link; the link itself is not shown here (the customer's credential). */
export async function sendPortalLinkAction(customerEmail: string) {
  return runAction(async () => {
    const ctx = await actionContext('subscriptions:manage');
    const body = CreatePortalSessionBody.parse({ customerEmail, sendEmail: true });
    const { expiresAt } = await createPortalSession(ctx.db, { tenantId: ctx.owner.tenantId, mode: ctx.owner.mode }, body);
    revalidatePath('/dashboard/subscriptions');
    return { expiresAt };
  });
}
