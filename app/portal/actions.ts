'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { getDb } from '@/lib/db';
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
