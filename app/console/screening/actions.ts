'use server';

import { redirect } from 'next/navigation';
import { ApiError } from '@/lib/api/errors';
import { supportActionContext } from '@/lib/console/context';
import { ReviewDecision, reviewScreeningHold } from '@/lib/payments/review-screening-hold';

/** Release or keep frozen one payment held for review (compliance users only: checked in reviewScreeningHold). */
export async function reviewHold(form: FormData): Promise<void> {
  const ctx = await supportActionContext();
  const decision = ReviewDecision.parse(form.get('decision'));
  let note: string;
  try {
    await reviewScreeningHold(ctx.db, ctx, String(form.get('paymentId') ?? ''), decision);
    note = decision === 'release' ? 'released' : 'kept frozen';
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    note = err.message;
  }
  redirect(`/console/screening?note=${encodeURIComponent(note)}`);
}
