import type { RefundClaim } from '@/db/schema';
import { iso, isoOrNull } from '@/lib/api/schemas';
import { formatAmount } from '@/lib/money';
import type { RefundClaimView } from './schemas';

/** An OPEN claim past its time is EXPIRED: computed on read, and refused at use by the same test (no sweep job needed). */
export const claimStatus = (c: Pick<RefundClaim, 'status' | 'expiresAt'>, now = new Date()) =>
  c.status === 'OPEN' && c.expiresAt <= now ? 'EXPIRED' : c.status;

export function refundClaimView(c: RefundClaim, refundRequestId: string | null, now = new Date()): RefundClaimView {
  return {
    id: c.id,
    invoiceId: c.invoiceId,
    amount: formatAmount(c.amount),
    status: claimStatus(c, now),
    createdBy: c.createdBy,
    refundRequestId,
    expiresAt: iso(c.expiresAt),
    usedAt: isoOrNull(c.usedAt),
    createdAt: iso(c.createdAt),
  };
}
