import { eq } from 'drizzle-orm';
import { plans, tenants, type Subscription } from '@/db/schema';
import type { Db } from '@/lib/db';
import { enqueueEmail } from '@/lib/email/enqueue-email';

/** Why a subscription ended, in the customer's e-mail. */
export type CancelReason = 'merchant' | 'period_end' | 'unpaid';

/** Tells the customer their subscription is canceled and why, in the transaction that canceled it; once per subscription. */
export async function emailCancellation(tx: Db, sub: Subscription, reason: CancelReason): Promise<void> {
  const [row] = await tx
    .select({ planName: plans.name, merchantName: tenants.name })
    .from(plans)
    .innerJoin(tenants, eq(tenants.id, plans.tenantId))
    .where(eq(plans.id, sub.planId));
  await enqueueEmail(tx, {
    tenantId: sub.tenantId,
    mode: sub.mode,
    kind: 'canceled',
    subjectId: sub.id,
    to: sub.customerEmail,
    data: { merchantName: row!.merchantName, planName: row!.planName, reason, subscriptionId: sub.id },
  });
}
