import { subscriptions } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { requireRail } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { assertTenantRail } from '@/lib/tenants/tenant-rails';
import { getPlanOrThrow } from './get-plan-or-throw';
import { subscriptionViews } from './load-subscription';
import { openPeriod, type NetworkFor } from './open-period';
import { addDays, addIntervals } from './periods';
import type { CreateSubscriptionInput } from './schemas';
import { writeSubscriptionEvents } from './write-subscription-events';

/**
 * A subscription of the customer to the plan, on the plan's token and the chosen network. With a trial it is
 * `trialing` until the trial ends (the billing job then bills the first period); without one it is `active` and its
 * first period's invoice is created in the same transaction (invoice.created, then subscription.created).
 */
export async function createSubscription(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: { rails: string[] | null } },
  input: CreateSubscriptionInput,
  opts: { now?: Date; networkFor?: NetworkFor } = {},
) {
  const now = opts.now ?? new Date();
  const plan = await getPlanOrThrow(db, { id: input.planId, tenantId: owner.tenantId, mode: owner.mode }).catch((e: unknown) => {
    // The plan is a body field: an unknown one is a bad request, not a missing resource at the URL.
    if (e instanceof ApiError && e.code === 'not_found')
      throw new ApiError('validation_failed', 'No such plan in this account and mode.', [{ path: 'planId', message: 'no such plan' }]);
    throw e;
  });
  const rail = { chain: input.chain ?? plan.chain, token: plan.token };
  const trial = plan.trialDays > 0;
  // The first invoice needs the deposit wallet now; after a trial, the billing job needs it then.
  if (trial) requireRail(owner.mode, rail, []);
  else (opts.networkFor ?? requireRail)(owner.mode, rail, ['depositMnemonic']);
  assertTenantRail(owner.tenant, owner.mode, rail);
  const anchor = trial ? addDays(now, plan.trialDays) : now;
  return db.transaction(async (tx) => {
    const [sub] = await tx
      .insert(subscriptions)
      .values({
        id: newId('subscription'),
        tenantId: owner.tenantId,
        mode: owner.mode,
        planId: plan.id,
        customerEmail: input.customerEmail,
        ...rail,
        status: trial ? 'trialing' : 'active',
        billingAnchor: anchor,
        periodNumber: trial ? -1 : 0,
        currentPeriodStart: now,
        currentPeriodEnd: trial ? anchor : addIntervals(anchor, plan.interval, plan.intervalCount, 1),
        cancelAtPeriodEnd: input.cancelAtPeriodEnd,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!trial) await openPeriod(tx, sub!, plan, 0, now, opts.networkFor);
    await writeSubscriptionEvents(tx, sub!, ['subscription.created']);
    const [view] = await subscriptionViews(tx, [sub!]);
    return view!;
  });
}
