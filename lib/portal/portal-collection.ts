import type { Address } from 'viem';
import type { z } from 'zod';
import type { Db } from '@/lib/db';
import { permitOffer } from '@/lib/subscriptions/collect/permit-offer';
import { submitPermitSetUp } from '@/lib/subscriptions/collect/submit-permit';
import type { PermitSetUpBody } from '@/lib/subscriptions/schemas';
import { setUpCollection } from '@/lib/subscriptions/collect/set-up-collection';
import { turnOffCollection } from '@/lib/subscriptions/collect/turn-off-collection';
import { parsePayer, permitSubmissionOf } from '@/lib/subscriptions/collect/turn-on-collection';
import { portalSubscriptionOf } from './portal-subscriptions';

export const TURNED_OFF_IN_PORTAL = 'turned off by the customer';

/**
 * The portal's "Turn off automatic collection": the session and the owner are checked again (portalSubscriptionOf);
 * no pull is started for it any more (turnOffCollection). The permission on chain is the customer's to revoke; the
 * page shows how.
 */
export async function turnOffCollectionFromPortal(db: Db, secret: unknown, subscriptionId: string, now = new Date()) {
  const { sub } = await portalSubscriptionOf(db, secret, subscriptionId, now);
  return turnOffCollection(db, sub.id, TURNED_OFF_IN_PORTAL, now);
}

/** The portal's set-up, as the checkout's: the session is the credential, the consent is read back from the chain. */
export async function setUpCollectionFromPortal(db: Db, secret: unknown, subscriptionId: string, payer: string, now = new Date()) {
  const { sub } = await portalSubscriptionOf(db, secret, subscriptionId, now);
  return setUpCollection(db, sub.id, { payer: parsePayer(sub.chain, payer) }, { requireAllowance: true });
}

/** The portal's USDC set-up by signature, as the checkout's: the session is the credential, the signatures the consent. */
export async function setUpCollectionByPermitFromPortal(
  db: Db,
  secret: unknown,
  subscriptionId: string,
  body: z.infer<typeof PermitSetUpBody>,
  now = new Date(),
) {
  const { sub } = await portalSubscriptionOf(db, secret, subscriptionId, now);
  return submitPermitSetUp(db, sub.id, permitSubmissionOf(sub.chain, body), { now });
}

/** The portal's "sign" button: the two messages for this payer's wallet, behind the session. */
export async function permitOfferFromPortal(db: Db, secret: unknown, subscriptionId: string, payer: string, now = new Date()) {
  const { sub } = await portalSubscriptionOf(db, secret, subscriptionId, now);
  return permitOffer(db, sub.id, parsePayer(sub.chain, payer) as Address, { now });
}
