'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { getDb } from '@/lib/db';
import { isProduction } from '@/lib/env';
import { checkoutWithoutToken } from '@/lib/http/secret-url-cookie';
import { clientIp } from '@/lib/http/client-ip';
import { createLinkInvoice } from '@/lib/payment-links/create-link-invoice';

export interface PayLinkState {
  error?: string;
}

const Form = z.object({ slug: z.string().min(1).max(64), amount: z.string().max(40).optional(), customerEmail: z.string().max(254).optional() });

/**
 * A payer starts paying a link: an invoice of their own, then off to the hosted checkout with the invoice's claim
 * token (the payer's credential for a refund address; this redirect is the only place it is shown). Same host
 * whatever PUBLIC_BASE_URL says: the payer is already here.
 */
export async function payLink(_prev: PayLinkState, formData: FormData): Promise<PayLinkState> {
  const form = Form.safeParse(Object.fromEntries(formData));
  if (!form.success) return { error: 'Please check the form.' };
  let checkout: string;
  try {
    const invoice = await createLinkInvoice(await getDb(), form.data.slug, {
      amount: form.data.amount,
      customerEmail: form.data.customerEmail,
      clientAddress: clientIp(await headers()),
    });
    // The token goes into the checkout's cookies, not the URL (lib/http/secret-url-cookie.ts).
    const bare = checkoutWithoutToken(invoice.checkoutUrl, isProduction());
    const jar = await cookies();
    for (const c of bare.cookies) jar.set(c);
    checkout = bare.path;
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
  redirect(checkout);
}
