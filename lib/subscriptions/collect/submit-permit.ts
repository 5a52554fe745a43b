import type { Address } from 'viem';
import type { SubscriptionCollection } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { publicClient } from '@/lib/chain/clients';
import type { Db } from '@/lib/db';
import type { RailLookup } from './collector-network';
import { permitRailOf, permitTermsOf } from './permit-offer';
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
  const { sub, plan, net } = await permitRailOf(db, subscriptionId, opts.railLookup);
  const client = publicClient(net.rpcUrl);
  const payer = p.payer.toLowerCase() as Address;
  let row = await findSetUp(db, net.chainId, p.authorizeSignature);
  if (!row || row.subscriptionId !== sub.id) {
    const terms = permitTermsOf(sub, plan, net);
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
