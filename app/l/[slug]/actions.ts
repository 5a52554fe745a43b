'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { getDb } from '@/lib/db';
import { clientIp } from '@/lib/http/client-ip';
import { createLinkInvoice } from '@/lib/payment-links/create-link-invoice';

export interface PayLinkState {
  error?: string;
}

const Form = z.object({ slug: z.string().min(1).max(64), amount: z.string().max(40).optional() });

/** A payer starts paying a link: an invoice of their own, then off to the hosted checkout. */
export async function payLink(_prev: PayLinkState, formData: FormData): Promise<PayLinkState> {
  const form = Form.safeParse(Object.fromEntries(formData));
  if (!form.success) return { error: 'Please check the form.' };
  let invoiceId: string;
  try {
    const invoice = await createLinkInvoice(await getDb(), form.data.slug, { amount: form.data.amount, clientAddress: clientIp(await headers()) });
    invoiceId = invoice.id;
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
  redirect(`/pay/${invoiceId}`);
}
