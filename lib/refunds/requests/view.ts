import { formatAddress } from '@/lib/chain/deposit-keys';
import type { RefundRequest } from '@/db/schema';
import { iso, isoOrNull } from '@/lib/api/schemas';
import type { RefundRequestEventDataView } from '@/lib/events/payloads';
import { formatAmount } from '@/lib/money';
import type { RefundRequestView } from './schemas';

/** The data of refund_request.* events. */
export function refundRequestEventData(r: RefundRequest): RefundRequestEventDataView {
  return {
    id: r.id,
    invoiceId: r.invoiceId,
    status: r.status,
    destinationAddress: formatAddress(r.destinationAddress),
    amount: formatAmount(r.amount),
    withdrawalId: r.withdrawalId,
    declineReason: r.declineReason,
    decidedBy: r.decidedBy,
    createdAt: iso(r.createdAt),
    decidedAt: isoOrNull(r.decidedAt),
  };
}

export function refundRequestView(r: RefundRequest): RefundRequestView {
  return { ...refundRequestEventData(r), pendingReason: r.pendingReason, source: r.source, autoRefundAfter: isoOrNull(r.autoRefundAfter) };
}
