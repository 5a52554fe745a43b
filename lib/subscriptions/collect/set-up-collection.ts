import { eq } from 'drizzle-orm';
import { formatUnits, parseUnits } from 'viem';
import { plans, subscriptionCollections, subscriptions, type SubscriptionCollection } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/api/errors';
import { log } from '@/lib/log';
import { collectorRail, permissionIdOf, type RailLookup } from './collector-network';
import { pullOpsOf } from './pull-ops';

/**
 * Turns on automatic collection for a subscription once its payer authorized the collector on chain (approve, then
 * `authorize(permissionIdOf(sub), token, cap, period, start)`): the permission is read back from the contract and kept
 * only if it is for the rail's token, not revoked, and its cap covers the plan's amount (`collection_not_authorized`
 * otherwise). `requireAllowance` (the payer's own set-up: checkout, portal, API) also asks that the allowance to the
 * collector covers one period, so a payer who authorized but did not approve is told now rather than by a failed pull.
 * A read that fails is `service_unavailable`, never taken for "not authorized". Setting it up again (a new
 * authorization after a cancellation) replaces the row. The caller has checked who may ask (tenant, claim token, portal).
 */
export async function setUpCollection(
  db: Db,
  subscriptionId: string,
  /** The payer's address in the rail's form (`0x…`, `T…`). */
  p: { payer: string },
  /** `requireAllowance`: the payer's own set-up (checkout, portal) also needs one period approved. */
  opts: { railLookup?: RailLookup; requireAllowance?: boolean } = {},
): Promise<SubscriptionCollection & { shownPayer: string }> {
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  if (!sub) throw notFound('Subscription');
  if (sub.status === 'canceled') throw new ApiError('invalid_state', 'This subscription is canceled: nothing more will be collected.');
  const [plan] = await db.select().from(plans).where(eq(plans.id, sub.planId));
  const net = collectorRail(opts.railLookup)(sub.mode, sub.chain, sub.token);
  if (!net) throw new ApiError('validation_failed', 'This rail has no automatic collection (no collector contract): pay by invoice');
  // The on-chain cap is a token amount; a fiat price converts to a different one each period.
  if (plan!.priceCurrency)
    throw new ApiError('validation_failed', 'A fiat-priced plan has no automatic collection yet: its periods are paid by invoice');
  const permissionId = permissionIdOf(sub.id);
  const ops = pullOpsOf(net);
  const payer = ops.storedAddress(p.payer);
  const need = parseUnits(plan!.amount, net.decimals);
  // A failed read is a 503: never taken for "not authorized".
  const [{ token, start, period, cap, revoked }, state] = await Promise.all([
    ops.readPermission(net, payer, permissionId),
    opts.requireAllowance ? ops.readState(net, { permissionId, payer, amount: need }) : Promise.resolve(null),
  ]).catch((err: unknown) => {
    log.warn('collection set-up unreadable', { subscriptionId, error: err instanceof Error ? err.message : String(err) });
    throw new ApiError('service_unavailable', 'The chain could not be read, so the authorization could not be checked: try again in a moment.');
  });
  const shown = ops.wireAddress(payer);
  if (ops.storedAddress(token) !== ops.storedAddress(net.tokenAddress) || revoked || cap < need)
    throw new ApiError(
      'collection_not_authorized',
      `The payer ${shown} has not authorized the collector for this subscription, its token and amount: call authorize from this wallet first`,
    );
  if (state && state.allowance < need)
    throw new ApiError(
      'collection_not_authorized',
      `The payer ${shown} has not approved the collector for at least one period (${plan!.amount} ${sub.token}): approve it from this wallet first`,
    );
  const row = {
    subscriptionId: sub.id,
    chainId: net.chainId,
    payer,
    permissionId,
    maxPerPeriod: formatUnits(cap, net.decimals),
    periodSeconds: Number(period),
    startsAt: new Date(Number(start) * 1000),
    status: 'active' as const,
    canceledAt: null,
    cancelReason: null,
  };
  const [saved] = await db
    .insert(subscriptionCollections)
    .values(row)
    // Set up again: counted from now, so a period e-mailed while collection was off is not pulled as well.
    .onConflictDoUpdate({ target: subscriptionCollections.subscriptionId, set: { ...row, createdAt: new Date() } })
    .returning();
  // `shownPayer`: the payer as their wallet writes it (`0x…` lower case, `T…`), for the page that confirms it.
  return { ...saved!, shownPayer: shown };
}
