'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { getDb } from '@/lib/db';
import type { AutoCollectState, PermitActions } from '@/components/checkout/actions';
import {
  permitOfferFromPortal,
  setUpCollectionByPermitFromPortal,
  setUpCollectionFromPortal,
  turnOffCollectionFromPortal,
} from '@/lib/portal/portal-collection';
import { PermitSetUpBody } from '@/lib/subscriptions/schemas';
import { cancelFromPortal } from '@/lib/portal/portal-subscriptions';
import { PORTAL_COOKIE } from '@/lib/portal/portal-token';

const Form = z.object({ subscriptionId: z.string().min(1).max(100) });

/** "Cancel at period end": the session and the subscription's owner are checked again in cancelFromPortal. */
export async function cancelAtPeriodEndAction(formData: FormData): Promise<void> {
  const form = Form.safeParse(Object.fromEntries(formData));
  if (form.success) {
    try {
      await cancelFromPortal(await getDb(), (await cookies()).get(PORTAL_COOKIE)?.value, form.data.subscriptionId);
    } catch (err) {
      // An expired session or a subscription that is not theirs: the page shows what is true now.
      if (!(err instanceof ApiError)) throw err;
    }
  }
  redirect('/portal');
}

const CollectionForm = z.object({ subscriptionId: z.string().min(1).max(100) });

/** "Turn off automatic collection": the session and the owner are checked again in turnOffCollectionFromPortal. */
export async function turnOffCollectionAction(formData: FormData): Promise<void> {
  const form = CollectionForm.safeParse(Object.fromEntries(formData));
  if (form.success) {
    try {
      await turnOffCollectionFromPortal(await getDb(), (await cookies()).get(PORTAL_COOKIE)?.value, form.data.subscriptionId);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  redirect('/portal');
}

const SetUpForm = z.object({ subscriptionId: z.string().min(1).max(100), payer: z.string().max(200) });

/** Turning automatic collection (back) on from the portal: the same check of the chain as the checkout's. */
export async function setUpCollectionPortalAction(
  _prev: { error?: string; on?: string },
  formData: FormData,
): Promise<{ error?: string; on?: string }> {
  const form = SetUpForm.safeParse(Object.fromEntries(formData));
  if (!form.success) return { error: 'Please enter the wallet address you signed with.' };
  try {
    const on = await setUpCollectionFromPortal(await getDb(), (await cookies()).get(PORTAL_COOKIE)?.value, form.data.subscriptionId, form.data.payer);
    return { on: on.shownPayer };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}

const PortalHidden = z.object({ subscriptionId: z.string().min(1).max(100) });

/** The portal's USDC "sign" path, as the checkout's (components/checkout/actions.ts): the session is the credential. */
export async function permitOfferPortalAction(hidden: Record<string, string>, payer: string): ReturnType<PermitActions['offer']> {
  const h = PortalHidden.safeParse(hidden);
  if (!h.success || typeof payer !== 'string') return { error: 'Open the portal from your link again.' };
  try {
    return { offer: await permitOfferFromPortal(await getDb(), (await cookies()).get(PORTAL_COOKIE)?.value, h.data.subscriptionId, payer) };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}

export async function setUpByPermitPortalAction(hidden: Record<string, string>, body: z.input<typeof PermitSetUpBody>): Promise<AutoCollectState> {
  const h = PortalHidden.safeParse(hidden);
  const b = PermitSetUpBody.safeParse(body);
  if (!h.success || !b.success) return { error: 'The wallet did not return two signatures: try again.' };
  try {
    const on = await setUpCollectionByPermitFromPortal(await getDb(), (await cookies()).get(PORTAL_COOKIE)?.value, h.data.subscriptionId, b.data);
    return { on: on.payer };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.message };
    throw err;
  }
}
