import { z } from 'zod';
import { REFUND_REQUEST_STATUSES } from '@/db/schema/refund-requests';
import { PageQuery, paged } from '@/lib/api/schemas';
import { RefundRequestEventData } from '@/lib/events/payloads';
import { WithdrawalAmount } from '@/lib/withdrawals/schemas';

/** What the payer sends from the checkout page. */
export const ProposeRefundAddressInput = z.object({
  destinationAddress: z.string().trim().max(100),
  /** The payer's claim token from their checkout URL (`?claim=`); checked before anything else. */
  claimToken: z.string().max(200).optional(),
});

export const RefundRequestSchema = RefundRequestEventData.extend({
  pendingReason: z
    .string()
    .nullable()
    .describe('Why an automatic refund (auto-refund policy) has not been made yet, e.g. the payment is not settled; null otherwise.'),
}).meta({ id: 'RefundRequest' });
export type RefundRequestView = z.infer<typeof RefundRequestSchema>;

export const ListRefundRequestsQuery = PageQuery.extend({
  status: z.enum(REFUND_REQUEST_STATUSES).optional().describe('Only proposals in this status, e.g. PENDING: those waiting for you.'),
  invoiceId: z.string().max(64).optional().describe("Only this invoice's proposals."),
});
export type ListRefundRequestsInput = z.infer<typeof ListRefundRequestsQuery>;
export const RefundRequestList = paged(RefundRequestSchema);

export const ApproveRefundRequestBody = z.strictObject({
  amount: WithdrawalAmount.optional().describe(
    "USDT to give back to the payer's address, at most the invoice's refundable amount. Default as for POST /v1/invoices/{id}/refunds: the overpayment of a paid invoice, all of an unpaid one's settled payments.",
  ),
});
export type ApproveRefundRequestInput = z.infer<typeof ApproveRefundRequestBody>;

export const DeclineRefundRequestBody = z.strictObject({
  reason: z.string().trim().min(1).max(500).optional().describe('Shown to the payer on the checkout page.'),
});
export type DeclineRefundRequestInput = z.infer<typeof DeclineRefundRequestBody>;
