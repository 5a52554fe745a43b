'use server';

// The checkout's server actions (the payer's refund address, automatic collection), called by its refund section: they live beside them because components/ imports nothing from app/ (docs/architecture.md).

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { getDb } from '@/lib/db';
import { isProduction } from '@/lib/env';
import { clientIp } from '@/lib/http/client-ip';
import { CLAIM_COOKIE, claimCookies } from '@/lib/http/secret-url-cookie';
import { log } from '@/lib/log';
import { autoRefund } from '@/lib/refunds/requests/auto-refund';
import { proposeRefundAddress } from '@/lib/refunds/requests/propose-refund-address';
import {
  permitOfferFromCheckout,
  setUpCollectionByPermitFromCheckout,
  setUpCollectionFromCheckout,
} from '@/lib/subscriptions/collect/turn-on-collection';
import { PermitSetUpBody } from '@/lib/subscriptions/schemas';

export interface RefundAddressState {
  error?: string;
}

const Form = z.object({ invoiceId: z.string().min(1).max(64), address: z.string().max(200), claim: z.string().max(200).optional() });

/**
 * The payer gives a refund address on the checkout (works without JavaScript:
 * a form post, then the page again). The auto-refund policy acts only on safe
 * proposals after the tenant's delay (default 1 hour, so the merchant can
 * decline), by the job; with a delay of 0 a settled overpayment is refunded
 * right away here, so the payer sees it on the next page. Otherwise the job does
 * it once due and settled, or the merchant decides. The form carries the payer's
 * claim token (hidden field, from the page's claim cookie), else the cookie itself (the post goes to /pay/<id>, in
 * the cookie's path); proposeRefundAddress checks it.
 */
export async function proposeRefundAddressAction(_prev: RefundAddressState, formData: FormData): Promise<RefundAddressState> {
  const form = Form.safeParse(Object.fromEntries(formData));
  if (!form.success) return { error: 'Please enter your wallet address.' };
  const claim = form.data.claim || (await cookies()).get(CLAIM_COOKIE)?.value;
  const db = await getDb();
  try {
    const made = await proposeRefundAddress(
      db,
      form.data.invoiceId,
      { destinationAddress: form.data.address, claimToken: claim },
      { address: clientIp(await headers()) },
    );
    if (made.autoRefund) {
      await autoRefund(db, made.request.id).catch((err: unknown) =>
        // The job retries it; the payer's proposal is recorded either way.
        log.warn('auto refund at proposal failed', { refundRequestId: made.request.id, error: err instanceof Error ? err.message : String(err) }),
      );
    }
  } catch (err) {
    if (err instanceof ApiError) return { error: err.details?.[0]?.message ? `The address ${err.details[0].message}.` : err.message };
    throw err;
  }
  // Back to the payer's own page, the bare URL: the token was valid (else the proposal was refused), so its cookies are
  // (re)set here, for a page opened before they existed; never `?claim=` (an action's redirect is rendered by a
  // server-side fetch that would follow the proxy's 303 and drop its cookies).
  const jar = await cookies();
  for (const c of claimCookies(form.data.invoiceId, claim ?? '', isProduction())) jar.set(c);
  redirect(`/pay/${form.data.invoiceId}`);
}

export interface AutoCollectState {
  error?: string;
  /** Automatic collection is on for this wallet (lowercase). */
  on?: string;
}

const CollectForm = z.object({ invoiceId: z.string().min(1).max(64), payer: z.string().max(200), claim: z.string().max(200).optional() });

/**
 * "Pay now and collect automatically": the payer gives the wallet that signed approve and authorize; the server reads
 * the permission back from the chain (setUpCollectionFromCheckout: the invoice's claim token, from the hidden field or
 * the cookie, is the credential). A refusal or an unreadable chain comes back as a message, never as "not set up".
 */
export async function setUpCollectionAction(_prev: AutoCollectState, formData: FormData): Promise<AutoCollectState> {
  const form = CollectForm.safeParse(Object.fromEntries(formData));
  if (!form.success) return { error: 'Please enter the wallet address you signed with.' };
  const claim = form.data.claim || (await cookies()).get(CLAIM_COOKIE)?.value;
  try {
    const on = await setUpCollectionFromCheckout(await getDb(), form.data.invoiceId, { claimToken: claim, payer: form.data.payer });
    return { on: on.shownPayer };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}

/** The checkout's and the portal's USDC "sign" path: the typed data for the wallet, then its two signatures. */
export interface PermitActions {
  offer: (hidden: Record<string, string>, payer: string) => Promise<{ offer?: Awaited<ReturnType<typeof permitOfferFromCheckout>>; error?: string }>;
  submit: (hidden: Record<string, string>, body: z.input<typeof PermitSetUpBody>) => Promise<AutoCollectState>;
}

const Hidden = z.object({ invoiceId: z.string().min(1).max(64), claim: z.string().max(200).optional() });

/** The two messages the payer's wallet signs for a set-up without a transaction (USDC): behind the claim token. */
export async function permitOfferAction(hidden: Record<string, string>, payer: string): ReturnType<PermitActions['offer']> {
  const h = Hidden.safeParse(hidden);
  if (!h.success || typeof payer !== 'string') return { error: 'Open this page from the payment link you were given.' };
  const claim = h.data.claim || (await cookies()).get(CLAIM_COOKIE)?.value;
  try {
    return { offer: await permitOfferFromCheckout(await getDb(), h.data.invoiceId, { claimToken: claim, payer }) };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}

/** The wallet's two signatures: the gateway checks them, sends the set-up from its own wallet and turns collection on. */
export async function setUpByPermitAction(hidden: Record<string, string>, body: z.input<typeof PermitSetUpBody>): Promise<AutoCollectState> {
  const h = Hidden.safeParse(hidden);
  const b = PermitSetUpBody.safeParse(body);
  if (!h.success || !b.success) return { error: 'The wallet did not return two signatures: try again.' };
  const claim = h.data.claim || (await cookies()).get(CLAIM_COOKIE)?.value;
  try {
    const on = await setUpCollectionByPermitFromCheckout(await getDb(), h.data.invoiceId, { claimToken: claim, body: b.data });
    return { on: on.payer };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}
