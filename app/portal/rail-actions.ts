'use server';

import { cookies } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { getDb } from '@/lib/db';
import { changeRailFromPortal } from '@/lib/portal/change-rail-from-portal';
import { PORTAL_COOKIE } from '@/lib/portal/portal-token';

export type RailChangeState = { ok: boolean; message: string } | null;

const Form = z.object({ subscriptionId: z.string().min(1).max(100), chain: z.string().max(20) });

/** "Change network": the session, the owner and the network are checked again in changeRailFromPortal. */
export async function changeRailAction(_prev: RailChangeState, formData: FormData): Promise<RailChangeState> {
  const form = Form.safeParse(Object.fromEntries(formData));
  if (!form.success) return { ok: false, message: 'Choose a network.' };
  try {
    const sub = await changeRailFromPortal(await getDb(), (await cookies()).get(PORTAL_COOKIE)?.value, form.data.subscriptionId, form.data.chain);
    revalidatePath('/portal');
    return { ok: true, message: `From the next period you pay on ${CHAIN_SPECS[sub.chain].name}.` };
  } catch (err) {
    // An expired session, another's subscription, a network turned off: said plainly, nothing changed.
    if (err instanceof ApiError)
      return { ok: false, message: err.code === 'forbidden' ? 'This session has expired; ask the merchant for a new link.' : err.message };
    throw err;
  }
}
