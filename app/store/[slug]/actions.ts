'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { clientIp } from '@/lib/http/client-ip';
import { requireNetwork } from '@/lib/chain/network';
import { DEFAULT_RAIL } from '@/lib/config/rails';
import { getDb } from '@/lib/db';
import { isProduction } from '@/lib/env';
import { checkoutWithoutToken } from '@/lib/http/secret-url-cookie';
import { createOrder } from '@/lib/storefront/create-order';
import { getStore } from '@/lib/storefront/get-store';
import { CreateOrderBody } from '@/lib/storefront/schemas';

export interface BuyState {
  error?: string;
}

const Form = z.object({
  slug: z.string().max(100),
  mode: z.enum(['live', 'test']),
  productId: z.string().max(64),
  quantity: z.coerce.number(),
  email: z.string(),
});

/** A customer buys one product: order + invoice, then off to the hosted checkout. */
export async function buyProduct(_prev: BuyState, formData: FormData): Promise<BuyState> {
  const form = Form.safeParse(Object.fromEntries(formData));
  if (!form.success) return { error: 'Please check the form.' };
  const input = CreateOrderBody.safeParse({
    items: [{ productId: form.data.productId, quantity: form.data.quantity }],
    customerEmail: form.data.email,
  });
  if (!input.success) {
    const issue = input.error.issues[0]!;
    return { error: issue.path.includes('customerEmail') ? 'Enter a valid email address.' : 'Quantity must be a whole number from 1 to 100.' };
  }
  const db = await getDb();
  const store = await getStore(db, form.data.slug, form.data.mode);
  if (!store) return { error: 'This store is not available.' };
  let checkout: string;
  try {
    const order = await createOrder(
      db,
      { tenantId: store.tenantId, mode: store.mode },
      requireNetwork(store.mode, DEFAULT_RAIL.chain, ['depositMnemonic']),
      input.data,
      {
        clientAddress: clientIp(await headers()),
      },
    );
    // The customer's own checkout (same host, whatever PUBLIC_BASE_URL says), its claim token in the checkout's
    // cookies, not the URL (lib/http/secret-url-cookie.ts).
    const bare = checkoutWithoutToken(order.checkoutUrl, isProduction());
    const jar = await cookies();
    for (const c of bare.cookies) jar.set(c);
    checkout = bare.path;
  } catch (err) {
    if (err instanceof ApiError) return { error: err.details?.[0]?.message ? `Sorry: ${err.details[0].message}.` : err.message };
    throw err;
  }
  redirect(checkout);
}
