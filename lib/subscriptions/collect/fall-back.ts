import { and, eq } from 'drizzle-orm';
import { collectionPulls, emails, subscriptionCollections, subscriptions } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { writeSubscriptionEvents } from '../write-subscription-events';

/** Why a period was not collected automatically (recorded on the attempt). */
export type FallbackReason =
  | 'approval revoked'
  | 'insufficient balance'
  | 'insufficient allowance'
  | 'period cap used'
  | 'deposit address not allowed'
  | 'no collector'
  | 'reverted';

export interface Attempt {
  subscriptionId: string;
  periodStart: Date;
  invoiceId: string;
  amount: string;
  depositAddress: string;
  chainId: number;
}

/** The period's held invoice e-mail sent after all (the fallback), or dropped (the period was pulled). */
export async function settleHeldInvoiceEmail(tx: Db, invoiceId: string, send: boolean, now: Date) {
  await tx
    .update(emails)
    .set(send ? { status: 'pending', nextAttemptAt: now } : { status: 'dropped' })
    .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, invoiceId), eq(emails.status, 'held')));
}

/**
 * The period is paid by e-mailed invoice instead, in one transaction: the attempt recorded with its reason (a new
 * `skipped` row, or the recorded pull marked `failed`), the held invoice e-mail released, subscription.payment_failed
 * written, and on a revoked approval automatic collection turned off (the payer's cancellation of it, not of the
 * subscription). False when another run recorded this period's attempt first (nothing done).
 */
export async function fallBack(db: Db, a: Attempt, reason: FallbackReason, now: Date, recordedPullId?: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (recordedPullId) {
      const done = await tx
        .update(collectionPulls)
        .set({ status: 'failed', reason })
        .where(and(eq(collectionPulls.id, recordedPullId), eq(collectionPulls.status, 'signed')))
        .returning({ id: collectionPulls.id });
      if (!done.length) return false;
    } else {
      const [row] = await tx
        .insert(collectionPulls)
        .values({ id: newId('chainTx'), ...a, depositAddress: a.depositAddress.toLowerCase(), status: 'skipped', reason })
        .onConflictDoNothing()
        .returning({ id: collectionPulls.id });
      if (!row) return false;
    }
    await settleHeldInvoiceEmail(tx, a.invoiceId, true, now);
    if (reason === 'approval revoked')
      await tx
        .update(subscriptionCollections)
        .set({ status: 'canceled', canceledAt: now, cancelReason: reason })
        .where(eq(subscriptionCollections.subscriptionId, a.subscriptionId));
    const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, a.subscriptionId));
    await writeSubscriptionEvents(tx, sub!, ['subscription.payment_failed']);
    return true;
  });
}
