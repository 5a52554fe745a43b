import { and, eq } from 'drizzle-orm';
import { invoices, refundClaims, refundRequests, tenants, withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { formatAddress } from '@/lib/chain/deposit-keys';
import { formatAmount } from '@/lib/money';
import { hashClaimToken, isClaimToken } from './claim-token';

/**
 * A claim link the payer already used, reopened (issue 45): the request it made and where it stands, so the payer who
 * reloads after submitting sees their request rather than "no longer valid". The link itself is the credential, as it
 * was for making the request (no request id becomes one, nothing new is stored); the address shows masked, in case
 * the link travelled further since. Unknown, canceled and expired links still show nothing.
 */
export async function usedClaimPage(db: Db, token: string) {
  if (!isClaimToken(token)) return null;
  const [row] = await db
    .select({ tenantName: tenants.name, token: invoices.token, request: refundRequests, refundStatus: withdrawals.status })
    .from(refundClaims)
    .innerJoin(refundRequests, eq(refundRequests.claimId, refundClaims.id))
    .innerJoin(tenants, eq(tenants.id, refundClaims.tenantId))
    .innerJoin(invoices, eq(invoices.id, refundClaims.invoiceId))
    .leftJoin(withdrawals, eq(withdrawals.id, refundRequests.withdrawalId))
    .where(and(eq(refundClaims.tokenHash, hashClaimToken(token)), eq(refundClaims.status, 'USED')))
    .limit(1);
  if (!row) return null;
  const r = row.request;
  const status =
    r.status === 'DECLINED'
      ? `Declined by ${row.tenantName}${r.declineReason ? `: “${r.declineReason}”` : ''}.`
      : r.status === 'APPROVED'
        ? row.refundStatus === 'COMPLETED'
          ? 'Refund sent.'
          : row.refundStatus === 'FAILED'
            ? `The refund failed to send; ${row.tenantName} can send it again.`
            : 'Approved: the refund is being sent.'
        : r.status === 'PENDING'
          ? `Waiting for ${row.tenantName} to approve it.`
          : `Replaced by a later request; contact ${row.tenantName} if you did not make it.`;
  return {
    tenantName: row.tenantName,
    token: row.token,
    amount: formatAmount(r.amount),
    address: mask(r.destinationAddress),
    requestedAt: r.createdAt.toISOString(),
    status,
  };
}

/** As the checkout masks an address: its checksummed form's first 6 and last 4 characters. */
function mask(a: string) {
  const c = formatAddress(a);
  return `${c.slice(0, 6)}…${c.slice(-4)}`;
}
