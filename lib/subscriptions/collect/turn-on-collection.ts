import { eq } from 'drizzle-orm';
import { invoices, subscriptionPeriods, subscriptions } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import type { Db } from '@/lib/db';
import { claimTokenMatches } from '@/lib/invoices/claim-token';
import type { Mode } from '@/lib/mode';
import { familyOf, type ChainKey } from '@/lib/config/rails';
import { getSubscriptionOrThrow } from '../load-subscription';
import type { RailLookup } from './collector-network';
import { PULL_OPS } from './pull-ops';
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
  const [row] = await db
    .select({ claimTokenHash: invoices.claimTokenHash, subscriptionId: subscriptionPeriods.subscriptionId, chain: subscriptions.chain })
    .from(invoices)
    .leftJoin(subscriptionPeriods, eq(subscriptionPeriods.invoiceId, invoices.id))
    .leftJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
    .where(eq(invoices.id, invoiceId));
  if (!row) throw notFound('Invoice');
  if (!claimTokenMatches(row.claimTokenHash, p.claimToken))
    throw new ApiError('claim_token_required', 'Open this page from the payment link you were given to turn on automatic collection.');
  if (!row.subscriptionId || !row.chain) throw notFound('Subscription');
  return setUpCollection(db, row.subscriptionId, { payer: parsePayer(row.chain, p.payer) }, { ...opts, requireAllowance: true });
}
