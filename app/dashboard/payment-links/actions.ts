'use server';

import { revalidatePath } from 'next/cache';
import { runAction } from '@/lib/dashboard/action-result';
import { actionContext } from '@/lib/dashboard/context';
import { createPaymentLink } from '@/lib/payment-links/create-payment-link';
import { disablePaymentLink } from '@/lib/payment-links/disable-payment-link';
import { CreatePaymentLinkBody } from '@/lib/payment-links/schemas';

// Links of the header's mode; tenant and mode come from the session, never from the form.

export async function createPaymentLinkAction(input: unknown) {
  return runAction(async () => {
    const ctx = await actionContext('payment-links:manage');
    const link = await createPaymentLink(ctx.db, ctx.owner, CreatePaymentLinkBody.parse(input));
    revalidatePath('/dashboard/payment-links');
    return link;
  });
}

export async function disablePaymentLinkAction(id: string) {
  return runAction(async () => {
    const ctx = await actionContext('payment-links:manage');
    const link = await disablePaymentLink(ctx.db, { id: String(id), ...ctx.owner });
    revalidatePath('/dashboard/payment-links');
    return link;
  });
}
