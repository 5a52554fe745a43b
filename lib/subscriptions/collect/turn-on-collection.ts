import { eq } from 'drizzle-orm';
import type { Address, Hex } from 'viem';
import type { z } from 'zod';
import { invoices, subscriptionPeriods, subscriptions } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import type { Db } from '@/lib/db';
import { claimTokenMatches } from '@/lib/invoices/claim-token';
import type { Mode } from '@/lib/mode';
import { familyOf, type ChainKey } from '@/lib/config/rails';
import { getSubscriptionOrThrow } from '../load-subscription';
import type { PermitSetUpBody } from '../schemas';
import type { RailLookup } from './collector-network';
import { PULL_OPS } from './pull-ops';
import { permitOffer } from './permit-offer';
import { submitPermitSetUp, type PermitSubmission } from './submit-permit';
import { setUpCollection } from './set-up-collection';

/**
 * The payer's wallet as they typed or pasted it, in the rail family's form (`0x…` checksum-valid when mixed case on
 * EVM, a Base58Check `T…` on TRON), never the zero address: the family's rule (PULL_OPS), not a pattern here.
 */
export function parsePayer(chain: ChainKey, input: string): string {
  const s = input.trim();
  const problem = PULL_OPS[familyOf(chain)].payerProblem(s);
  if (problem)
    throw new ApiError('invalid_address', `The wallet address ${problem}: give the address you signed with.`, [{ path: 'payer', message: problem }]);
  return s;
}

type Opts = { railLookup?: RailLookup };

/**
 * POST /v1/subscriptions/{id}/collection: the merchant tells the gateway which wallet authorized the collector. The
 * payer's consent is what the contract holds (setUpCollection reads it back), so a key cannot make one up; another
 * tenant's or mode's id is a 404 before anything is read.
 */
export async function turnOnCollection(db: Db, where: { id: string; tenantId: string; mode: Mode }, payer: string, opts: Opts = {}) {
  const sub = await getSubscriptionOrThrow(db, where);
  return setUpCollection(db, sub.id, { payer: parsePayer(sub.chain, payer) }, { ...opts, requireAllowance: true });
}

/**
 * The checkout's "Pay now and collect automatically": authorized by the invoice's claim token (the payer's own link,
 * docs/invoices.md#the-payers-claim-token), never by the ids alone. The invoice must be one of the subscription's
 * periods. A missing or wrong token is 403 `claim_token_required`; an invoice that is no subscription's is a 404.
 */
export async function setUpCollectionFromCheckout(db: Db, invoiceId: string, p: { claimToken: string | undefined; payer: string }, opts: Opts = {}) {
  const { subscriptionId, chain } = await checkoutSubscriptionOf(db, invoiceId, p.claimToken);
  return setUpCollection(db, subscriptionId, { payer: parsePayer(chain, p.payer) }, { ...opts, requireAllowance: true });
}

/** The subscription of a checkout's invoice, once its claim token matched (403 `claim_token_required` otherwise). */
async function checkoutSubscriptionOf(db: Db, invoiceId: string, claimToken: string | undefined) {
  const [row] = await db
    .select({ claimTokenHash: invoices.claimTokenHash, subscriptionId: subscriptionPeriods.subscriptionId, chain: subscriptions.chain })
    .from(invoices)
    .leftJoin(subscriptionPeriods, eq(subscriptionPeriods.invoiceId, invoices.id))
    .leftJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
    .where(eq(invoices.id, invoiceId));
  if (!row) throw notFound('Invoice');
  if (!claimTokenMatches(row.claimTokenHash, claimToken))
    throw new ApiError('claim_token_required', 'Open this page from the payment link you were given to turn on automatic collection.');
  if (!row.subscriptionId || !row.chain) throw notFound('Subscription');
  return { subscriptionId: row.subscriptionId, chain: row.chain };
}

/** The API's and the pages' permit body as submitPermitSetUp takes it: the payer's address checked like the approve path's. */
export function permitSubmissionOf(chain: ChainKey, b: z.infer<typeof PermitSetUpBody>): PermitSubmission {
  return {
    // A permit is an EVM token's (USDC): the rail's rule answers a 0x address here.
    payer: parsePayer(chain, b.payer) as Address,
    chainId: b.chainId,
    permitValue: BigInt(b.permitValue),
    deadline: BigInt(b.deadline),
    permitSignature: b.permitSignature as Hex,
    authorizeSignature: b.authorizeSignature as Hex,
  };
}

/**
 * POST /v1/subscriptions/{id}/collection/permit: the merchant forwards its payer's two USDC signatures; the gateway
 * checks them, sends permitAndAuthorize from its gas wallet (the gas charged to the merchant) and turns collection on.
 */
export async function turnOnCollectionByPermit(
  db: Db,
  where: { id: string; tenantId: string; mode: Mode },
  body: z.infer<typeof PermitSetUpBody>,
  opts: Opts & { now?: Date } = {},
) {
  const sub = await getSubscriptionOrThrow(db, where);
  return submitPermitSetUp(db, sub.id, permitSubmissionOf(sub.chain, body), opts);
}

/** The checkout's "sign" set-up on a USDC rail: the invoice's claim token is the credential, as for the approve path. */
export async function setUpCollectionByPermitFromCheckout(
  db: Db,
  invoiceId: string,
  p: { claimToken: string | undefined; body: z.infer<typeof PermitSetUpBody> },
  opts: Opts & { now?: Date } = {},
) {
  const { subscriptionId, chain } = await checkoutSubscriptionOf(db, invoiceId, p.claimToken);
  return submitPermitSetUp(db, subscriptionId, permitSubmissionOf(chain, p.body), opts);
}

/** The checkout's "sign" button: the two messages for this payer's wallet (permitOffer), behind the claim token. */
export async function permitOfferFromCheckout(db: Db, invoiceId: string, p: { claimToken: string | undefined; payer: string }) {
  const { subscriptionId, chain } = await checkoutSubscriptionOf(db, invoiceId, p.claimToken);
  return permitOffer(db, subscriptionId, parsePayer(chain, p.payer) as Address);
}
