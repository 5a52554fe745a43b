import { eq } from 'drizzle-orm';
import { parseUnits, type Address } from 'viem';
import { plans, subscriptions, type Plan, type Subscription } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import type { AuthorizeTerms } from '@/lib/chain/evm/collector/permit-typed-data';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { collectorRail, periodSecondsOf, permissionIdOf, type CollectorNetwork, type RailLookup } from './collector-network';
import { readPermitBlock } from './permit-block';

/** The terms a payer's Authorize must carry, as GET …/collection offers them: the periods billed from the set-up on. */
export function permitTermsOf(sub: Pick<Subscription, 'id' | 'currentPeriodEnd'>, plan: Plan, net: CollectorNetwork): AuthorizeTerms {
  return {
    subscriptionId: permissionIdOf(sub.id),
    token: net.tokenAddress.toLowerCase() as Address,
    maxPerPeriod: parseUnits(plan.amount, net.decimals),
    periodSeconds: BigInt(periodSecondsOf(plan)),
    start: BigInt(Math.floor(sub.currentPeriodEnd.getTime() / 1000)),
  };
}

/** The subscription's rail when its token takes a permit (USDC outside BSC), with the plan; a refusal otherwise. */
export async function permitRailOf(db: Db, subscriptionId: string, railLookup?: RailLookup) {
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  if (!sub) throw notFound('Subscription');
  if (sub.status === 'canceled') throw new ApiError('invalid_state', 'This subscription is canceled: nothing more will be collected.');
  const [plan] = await db.select().from(plans).where(eq(plans.id, sub.planId));
  const net = plan!.priceCurrency ? null : collectorRail(railLookup)(sub.mode, sub.chain, sub.token);
  // The capability, not the family: only a token with EIP-2612 takes a permit.
  if (!net?.permit)
    throw new ApiError('validation_failed', "This rail's token takes no permit signature: approve and authorize from the wallet instead");
  return { sub, plan: plan!, net };
}

/**
 * The two messages the checkout's and the portal's "sign" button asks the payer's wallet to sign (the `permit` block of
 * GET …/collection for this payer): read now, with the payer's nonces. An unreadable chain is a 503.
 */
export async function permitOffer(db: Db, subscriptionId: string, payer: Address, opts: { railLookup?: RailLookup; now?: Date } = {}) {
  const { sub, plan, net } = await permitRailOf(db, subscriptionId, opts.railLookup);
  const block = await readPermitBlock(net, { terms: permitTermsOf(sub, plan, net), payer, now: opts.now ?? new Date() }).catch((err: unknown) => {
    log.warn('permit typed data unreadable', { subscriptionId, error: err instanceof Error ? err.message : String(err) });
    throw new ApiError('service_unavailable', 'The chain could not be read: try again in a moment.');
  });
  return { chainId: net.chainId, permitValue: block.permitValue, deadline: block.deadline, typedData: block.typedData! };
}
