import { and, eq } from 'drizzle-orm';
import { invoices, refundClaims, refundRequests, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { requireRail } from '@/lib/chain/network';
import { checkDestination, refused, storedForm } from '@/lib/destinations/check-destination';
import { env } from '@/lib/env';
import { emitEvent } from '@/lib/events/emit-event';
import { newId } from '@/lib/ids';
import { Decimal } from '@/lib/money';
import { autoRefundAfterFor } from '@/lib/refunds/requests/auto-refund-rules';
import { refundRequestEventData } from '@/lib/refunds/requests/view';
import { givebackTerms } from '@/lib/refunds/giveback-terms';
import { overCreationLimit } from '@/lib/rate-limits/order-limits';
import { openClaim } from './open-claim';
import { RedeemRefundClaimInput } from './schemas';

export interface ClaimUseLimits {
  perAddressPerMinute: number;
}

export const claimUseLimits = (): ClaimUseLimits => ({ perAddressPerMinute: env().REFUND_REQUESTS_PER_ADDRESS_PER_MINUTE });

/** One answer for unknown, used, canceled and expired links alike: the page tells a guesser nothing. */
export const noLongerValid = () => new ApiError('not_found', 'This refund link is no longer valid.');

/**
 * The payer, on a merchant's claim link, gives the address to refund the link's amount to. In one
 * transaction the link becomes USED and a PENDING `claim_link` refund request for its amount is
 * recorded (with `refund_request.created`); the merchant then approves or declines it as any other
 * (or the auto-refund policy acts after the tenant's delay: a link is a safe source). The link is the merchant's
 * own act, so it supersedes an undecided proposal that knew only the invoice id; a PENDING proposal
 * the payer made with their checkout token, or with another link, is never overridden (409, the link
 * stays open). Rate-limited per client address before anything is looked up, so the page is no
 * oracle for guessed links either.
 */
export async function redeemRefundClaim(
  db: Db,
  token: string,
  input: unknown,
  client: { address: string | null },
  limits: ClaimUseLimits = claimUseLimits(),
) {
  if (client.address !== null) {
    const wait = await overCreationLimit(db, `refundclaim-addr:${client.address}`, limits.perAddressPerMinute);
    if (wait !== null) {
      throw new ApiError('rate_limited', `Too many attempts from your address; try again in ${wait} seconds.`, undefined, {
        'Retry-After': String(wait),
      });
    }
  }
  const parsed = RedeemRefundClaimInput.safeParse(input);
  if (!parsed.success) throw refused('invalid_address', 'destinationAddress', 'must be a 0x address (40 hex characters) or, on TRON, a T… address');
  const first = await openClaim(db, token);
  if (!first) throw noLongerValid();
  const [found] = await db
    .select({ mode: invoices.mode, chain: invoices.chain, token: invoices.token })
    .from(invoices)
    .where(eq(invoices.id, first.invoiceId));
  // Paid on the invoice's rail: none of our addresses there, no token contract, no deposit address of any network.
  const rail = requireRail(found!.mode, { chain: found!.chain, token: found!.token }, []);
  // Stored form (lower-case 0x…, 41… on TRON): formatAddress gives the wire form back when it is paid.
  const address = storedForm(await checkDestination(db, rail, parsed.data.destinationAddress));

  return db.transaction(async (tx) => {
    // Invoice, then claim, then requests: the order proposals and approvals lock in.
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, first.invoiceId)).for('update');
    const c = await openClaim(tx, token, { forUpdate: true });
    if (!c) throw noLongerValid();
    const terms = await givebackTerms(tx, invoice!);
    if (terms.refundable.lt(c.amount)) {
      throw new ApiError('nothing_to_refund', 'This payment has already been refunded in the meantime. Contact the merchant.');
    }
    const [pending] = await tx
      .select({ id: refundRequests.id, source: refundRequests.source })
      .from(refundRequests)
      .where(and(eq(refundRequests.invoiceId, c.invoiceId), eq(refundRequests.status, 'PENDING')))
      .for('update');
    if (pending && pending.source !== 'invoice_link') {
      throw new ApiError(
        'conflict',
        'A refund address for this payment is already waiting for the merchant. Contact the merchant; this link stays usable.',
      );
    }
    const now = new Date();
    // Shared: a policy change commits before or after this reads it, never during. Automatic only after the
    // tenant's delay, within its bound, for payments seen after the policy was switched on (auto-refund-rules.ts).
    const [tenant] = await tx.select().from(tenants).where(eq(tenants.id, c.tenantId)).for('share');
    const auto = await autoRefundAfterFor(tx, tenant!, invoice!, 'claim_link', now, new Decimal(c.amount), {
      createdBy: c.createdBy,
      destination: address,
      owner: { tenantId: c.tenantId, mode: c.mode },
    });
    if (pending) await tx.update(refundRequests).set({ status: 'SUPERSEDED', decidedAt: now }).where(eq(refundRequests.id, pending.id));
    await tx.update(refundClaims).set({ status: 'USED', usedAt: now }).where(eq(refundClaims.id, c.id));
    const [row] = await tx
      .insert(refundRequests)
      .values({
        id: newId('refundRequest', now.getTime()),
        tenantId: c.tenantId,
        mode: c.mode,
        invoiceId: c.invoiceId,
        destinationAddress: address,
        amount: c.amount,
        source: 'claim_link',
        claimId: c.id,
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
    return { request: row!, autoRefund: auto.autoRefundAfter !== null && auto.autoRefundAfter <= now };
  });
}
