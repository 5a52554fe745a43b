import { and, count, eq } from 'drizzle-orm';
import { invoices, refundRequests, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/api/errors';
import { requireRail } from '@/lib/chain/network';
import { env } from '@/lib/env';
import { emitEvent } from '@/lib/events/emit-event';
import { isId, newId } from '@/lib/ids';
import { claimTokenMatches } from '@/lib/invoices/claim-token';
import { formatAmount } from '@/lib/money';
import { overCreationLimit } from '@/lib/rate-limits/order-limits';
import { checkDestination, refused, storedForm } from '@/lib/destinations/check-destination';
import type { RefundRequestSource } from '@/db/schema/refund-requests';
import { autoRefundAfterFor } from './auto-refund-rules';
import { givebackTerms } from '@/lib/refunds/giveback-terms';
import { ProposeRefundAddressInput } from './schemas';
import { refundRequestEventData } from './view';

export interface ProposalLimits {
  perAddressPerMinute: number;
  perInvoice: number;
}

export const proposalLimits = (): ProposalLimits => ({
  perAddressPerMinute: env().REFUND_REQUESTS_PER_ADDRESS_PER_MINUTE,
  perInvoice: env().REFUND_REQUESTS_MAX_PER_INVOICE,
});

const claimTokenRequired = () =>
  new ApiError(
    'claim_token_required',
    'Only the payment page link you were given when you started paying can give a refund address for this payment. Ask the merchant for a refund link.',
  );

/**
 * The payer, on the hosted checkout, gives the address to refund an invoice's
 * late, partial or excess payment to. Only a request carrying the invoice's
 * claim token may (issue 30 §1: `input.claimToken`, from the checkout URL the
 * create response gave, compared by hash in constant time): the invoice id is
 * seen by members, support, read-only keys and webhook consumers, so it is no
 * credential, and an invoice without a token (made before tokens) takes no
 * payer proposal. Recorded as source `payer_token`; there is no way around the
 * token here (a merchant claim link is redeemed by lib/refunds/claims). This only
 * records a proposal: the merchant approves or declines it, or the tenant's
 * auto-refund policy refunds an overpayment to it once settled and its delay
 * has passed (`autoRefund`, by the job; by the caller at once when the delay is
 * 0); see auto-refund-rules.ts. Refused, writing nothing, without the token,
 * when the address is bad or one of ours, when the invoice has nothing the
 * payer may ask back, past the per-address rate or the per-invoice count. A new
 * proposal (with the same token) supersedes the undecided one in the same
 * transaction (the invoice row lock orders them); the superseded one stays in
 * the merchant's history.
 */
export async function proposeRefundAddress(
  db: Db,
  invoiceId: string,
  input: unknown,
  client: { address: string | null },
  limits: ProposalLimits = proposalLimits(),
) {
  if (!isId('invoice', invoiceId)) throw notFound('Invoice');
  const parsed = ProposeRefundAddressInput.safeParse(input);
  const [found] = await db
    .select({ mode: invoices.mode, chain: invoices.chain, token: invoices.token, claimTokenHash: invoices.claimTokenHash })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  if (!found) throw notFound('Invoice');
  // First, so nobody without the token learns anything (not even whether an address would be accepted).
  const source: RefundRequestSource = 'payer_token';
  if (!claimTokenMatches(found.claimTokenHash, (input as { claimToken?: unknown } | null)?.claimToken)) throw claimTokenRequired();
  if (!parsed.success) throw refused('invalid_address', 'destinationAddress', 'must be a 0x address (40 hex characters) or, on TRON, a T… address');
  // The refund is paid on the invoice's rail: none of our addresses there, no token contract, no deposit address of any network.
  const rail = requireRail(found.mode, { chain: found.chain, token: found.token }, []);
  // Stored form (lower-case 0x…, 41… on TRON): formatAddress gives the wire form back when it is paid.
  const address = storedForm(await checkDestination(db, rail, parsed.data.destinationAddress));

  if (client.address !== null) {
    const wait = await overCreationLimit(db, `refundreq-addr:${client.address}`, limits.perAddressPerMinute);
    if (wait !== null) {
      throw new ApiError('rate_limited', `Too many refund requests from your address; try again in ${wait} seconds.`, undefined, {
        'Retry-After': String(wait),
      });
    }
  }

  return db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId)).for('update');
    const claim = (await givebackTerms(tx, invoice!)).claimable;
    if (claim.lt('0.01')) {
      throw new ApiError('nothing_to_refund', 'This payment has nothing to refund: it was paid as requested, or is still waiting for payment.');
    }
    const [made] = await tx.select({ n: count() }).from(refundRequests).where(eq(refundRequests.invoiceId, invoiceId));
    if (Number(made!.n) >= limits.perInvoice) {
      throw new ApiError(
        'too_many_refund_requests',
        `A refund address was already given ${made!.n} times for this payment, the most allowed. Contact the merchant.`,
      );
    }
    const now = new Date();
    // Shared: a policy change commits before or after the proposal reads it, never during.
    const [tenant] = await tx.select().from(tenants).where(eq(tenants.id, invoice!.tenantId)).for('share');
    const auto = await autoRefundAfterFor(tx, tenant!, invoice!, source, now, claim);
    await tx
      .update(refundRequests)
      .set({ status: 'SUPERSEDED', decidedAt: now })
      .where(and(eq(refundRequests.invoiceId, invoiceId), eq(refundRequests.status, 'PENDING')));
    const [row] = await tx
      .insert(refundRequests)
      .values({
        id: newId('refundRequest', now.getTime()),
        tenantId: invoice!.tenantId,
        mode: invoice!.mode,
        invoiceId,
        destinationAddress: address,
        amount: claim.toFixed(),
        source,
        ...auto,
        createdAt: now,
      })
      .returning();
    await emitEvent(tx, {
      tenantId: row!.tenantId,
      mode: row!.mode,
      type: 'refund_request.created',
      subjectId: row!.id,
      data: refundRequestEventData(row!),
    });
    // Due at once (delay 0): the caller may run the policy right after this commits instead of waiting for the job.
    return { request: row!, amount: formatAmount(claim), autoRefund: auto.autoRefundAfter !== null && auto.autoRefundAfter <= now };
  });
}
