import { eq } from 'drizzle-orm';
import { parseUnits, type Address } from 'viem';
import { plans, subscriptions, type SubscriptionCollection } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { publicClient } from '@/lib/chain/clients';
import type { Db } from '@/lib/db';
import { collectorRail, periodSecondsOf, permissionIdOf, type RailLookup } from './collector-network';
import { setUpCollection } from './set-up-collection';
import { findSetUp, recordSetUp, sendSetUp } from './permit-tx';
import { verifyPermit, type PermitSubmission } from './verify-permit';

export type { PermitSubmission } from './verify-permit';

/**
 * A payer's USDC set-up by signature (docs/subscriptions.md#usdc-set-up-by-signature-eip-2612): the two signatures
 * are checked off chain (verifyPermit: nothing is sent for a bad pair), recorded as the operator's signed
 * permitAndAuthorize before any broadcast (one transaction per consent: a replay or a concurrent twin gets the same
 * one), sent from the gas wallet, and once it landed collection is turned on (setUpCollection reads the permission
 * back). The gas is the merchant's (the row's network_fee, charged with the subscription's next credit). The caller
 * checked who may ask (API key's tenant, checkout claim token, portal session).
 */
export async function submitPermitSetUp(
  db: Db,
  subscriptionId: string,
  p: PermitSubmission,
  /** `afterRecord`: tests stop the process between the record and the broadcast. */
  opts: { railLookup?: RailLookup; now?: Date; afterRecord?: () => void | Promise<void> } = {},
): Promise<SubscriptionCollection> {
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  if (!sub) throw notFound('Subscription');
  if (sub.status === 'canceled') throw new ApiError('invalid_state', 'This subscription is canceled: nothing more will be collected.');
  const [plan] = await db.select().from(plans).where(eq(plans.id, sub.planId));
  const net = plan!.priceCurrency ? null : collectorRail(opts.railLookup)(sub.mode, sub.chain, sub.token);
  // The capability, not the family: only a token with EIP-2612 (USDC outside BSC) takes a permit.
  if (!net?.permit)
    throw new ApiError('validation_failed', "This rail's token takes no permit signature: approve and authorize from the wallet instead");
  const client = publicClient(net.rpcUrl);
  const payer = p.payer.toLowerCase() as Address;
  let row = await findSetUp(db, net.chainId, p.authorizeSignature);
  if (!row || row.subscriptionId !== sub.id) {
    const terms = {
      subscriptionId: permissionIdOf(sub.id),
      token: net.tokenAddress.toLowerCase() as Address,
      maxPerPeriod: parseUnits(plan!.amount, net.decimals),
      periodSeconds: BigInt(periodSecondsOf(plan!)),
      // As offered (get-collection.ts): the periods billed from the set-up on are pulled.
      start: BigInt(Math.floor(sub.currentPeriodEnd.getTime() / 1000)),
    };
    const verified = await verifyPermit(net, terms, p, opts.now ?? new Date()).catch(async (err: unknown) => {
      // A concurrent twin may have been recorded and mined meanwhile (the nonce moved on, so the pair no longer
      // verifies): its transaction is this consent's.
      if (err instanceof ApiError && (await findSetUp(db, net.chainId, p.authorizeSignature))) return null;
      throw err;
    });
    row = verified
      ? await recordSetUp(db, client, net, { subscriptionId: sub.id, payer, authorizeSignature: p.authorizeSignature, verified })
      : (await findSetUp(db, net.chainId, p.authorizeSignature))!;
    await opts.afterRecord?.();
  }
  const done = await sendSetUp(db, client, net, row).catch((err: unknown) => {
    throw new ApiError(
      'service_unavailable',
      `The set-up was recorded but its transaction could not be sent or confirmed yet (${err instanceof Error ? err.message : String(err)}): it is retried; submit the same signatures again to see it through.`,
    );
  });
  if (done.status !== 'confirmed')
    throw new ApiError(
      'collection_not_authorized',
      'The collector refused the signatures on chain (the transaction reverted): ask for new typed data and sign again.',
    );
  return setUpCollection(db, sub.id, { payer: done.payer }, { railLookup: opts.railLookup, requireAllowance: true });
}
