import { and, eq, gt, sql } from 'drizzle-orm';
import { refundClaims, refundRequests } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/api/errors';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { requireRail } from '@/lib/chain/network';
import { isId, newId } from '@/lib/ids';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { decidedBy } from '@/lib/refunds/requests/decided-by';
import { givebackTerms } from '@/lib/refunds/giveback-terms';
import { parseWithdrawalAmount } from '@/lib/withdrawals/amounts';
import { assertNetworkMinimum, networkTerms } from '@/lib/withdrawals/network-terms';
import { claimUrl, hashClaimToken, newClaimToken } from './claim-token';
import { CLAIM_DEFAULT_HOURS, type CreateRefundClaimInput, type CreatedRefundClaimView } from './schemas';
import { refundClaimView } from './view';

/**
 * What open links and undecided link requests of an invoice already promise: a new link may only
 * promise what is left, so the links of one invoice never add up to more than it can refund.
 */
async function promised(tx: Db, invoiceId: string, now: Date): Promise<Decimal> {
  const [open] = await tx
    .select({ sum: sql<string | null>`sum(${refundClaims.amount})` })
    .from(refundClaims)
    .where(and(eq(refundClaims.invoiceId, invoiceId), eq(refundClaims.status, 'OPEN'), gt(refundClaims.expiresAt, now)));
  const [pending] = await tx
    .select({ sum: sql<string | null>`sum(${refundRequests.amount})` })
    .from(refundRequests)
    .where(and(eq(refundRequests.invoiceId, invoiceId), eq(refundRequests.status, 'PENDING'), eq(refundRequests.source, 'claim_link')));
  return new Decimal(open?.sum ?? 0).plus(pending?.sum ?? 0);
}

/**
 * The merchant's refund claim link (issue 30 §1): a one-time URL for a payer who has no checkout
 * claim token (paid from an exchange, lost the page), to enter the address an amount of this invoice
 * is refunded to. Bounded by what a merchant refund of the invoice would allow now (settled money,
 * less refunds and what other links promise); the refund itself is made only when the merchant (or
 * the auto-refund policy) approves the request the payer makes with it. The secret is returned once
 * in `url`; only its sha256 is stored.
 */
export async function createRefundClaim(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  input: CreateRefundClaimInput,
  actor: AuditActor,
): Promise<CreatedRefundClaimView> {
  const amount = parseWithdrawalAmount(input.amount);
  if (!isId('invoice', input.invoiceId)) throw notFound('Invoice');
  return db.transaction(async (tx) => {
    // Locked as refunds lock it: concurrent links and refunds of one invoice see each other.
    const invoice = await getInvoiceOrThrow(tx, { id: input.invoiceId, ...owner }, { forUpdate: true });
    const rail = requireRail(owner.mode, { chain: invoice.chain, token: invoice.token }, []);
    assertNetworkMinimum(amount, networkTerms(rail), 'refund');
    const now = new Date();
    const terms = await givebackTerms(tx, invoice);
    if (terms.refundable.lt('0.01')) {
      throw new ApiError(
        'nothing_to_refund',
        terms.settled.isZero()
          ? 'This invoice has no settled payment to refund yet (payments are refundable once confirmed and credited).'
          : `Everything this invoice settled (${formatAmount(terms.settled)} ${invoice.token}) is already refunded.`,
      );
    }
    const left = Decimal.max(0, terms.refundable.minus(await promised(tx, invoice.id, now)));
    if (amount.gt(left)) {
      throw new ApiError(
        'refund_exceeds_received',
        `At most ${formatAmount(left)} ${invoice.token} of this invoice can be promised (refundable ${formatAmount(terms.refundable)}, less open refund links).`,
        [{ path: 'amount', message: `more than the ${formatAmount(left)} left to refund` }],
      );
    }
    const token = newClaimToken();
    const [row] = await tx
      .insert(refundClaims)
      .values({
        id: newId('refundClaim', now.getTime()),
        tenantId: owner.tenantId,
        mode: owner.mode,
        invoiceId: invoice.id,
        amount: amount.toFixed(2),
        tokenHash: hashClaimToken(token),
        status: 'OPEN',
        createdBy: decidedBy(actor),
        expiresAt: new Date(now.getTime() + (input.expiresInHours ?? CLAIM_DEFAULT_HOURS) * 3_600_000),
        createdAt: now,
      })
      .returning();
    await recordAudit(
      tx,
      actor,
      merchantAuditEntry(owner, { action: 'refund_claim.created', claim: { id: row!.id, invoiceId: invoice.id, amount: amount.toFixed(2) } }),
    );
    return { ...refundClaimView(row!, null, now), url: claimUrl(token) };
  });
}
