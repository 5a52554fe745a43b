'use server';

import { headers } from 'next/headers';
import { z } from 'zod';
import { ApiError } from '@/lib/api/errors';
import { getDb } from '@/lib/db';
import { clientIp } from '@/lib/http/client-ip';
import { log } from '@/lib/log';
import { redeemRefundClaim } from '@/lib/refunds/claims/redeem-refund-claim';
import { autoRefund } from '@/lib/refunds/requests/auto-refund';
import { formatAmount } from '@/lib/money';
import { formatAddress } from '@/lib/chain/deposit-keys';

export interface ClaimFormState {
  error?: string;
  /** The request was recorded: the link is used up, the page shows this instead of the form. */
  done?: { address: string; amount: string };
}

const Form = z.object({ token: z.string().min(1).max(100), address: z.string().max(200) });

/**
 * The payer enters their address on a merchant's claim link (works without JavaScript: a form post).
 * With the merchant's auto-refund policy the refund may be made right away; otherwise the merchant decides.
 */
export async function redeemRefundClaimAction(_prev: ClaimFormState, formData: FormData): Promise<ClaimFormState> {
  const form = Form.safeParse(Object.fromEntries(formData));
  if (!form.success) return { error: 'Please enter your wallet address.' };
  const db = await getDb();
  try {
    const made = await redeemRefundClaim(db, form.data.token, { destinationAddress: form.data.address }, { address: clientIp(await headers()) });
    if (made.autoRefund) {
      await autoRefund(db, made.request.id).catch((err: unknown) =>
        // The job retries it; the payer's request is recorded either way.
        log.warn('auto refund at claim failed', { refundRequestId: made.request.id, error: err instanceof Error ? err.message : String(err) }),
      );
    }
    return { done: { address: formatAddress(made.request.destinationAddress), amount: formatAmount(made.request.amount) } };
  } catch (err) {
    if (err instanceof ApiError) return { error: err.details?.[0]?.message ? `The address ${err.details[0].message}.` : err.message };
    throw err;
  }
}
