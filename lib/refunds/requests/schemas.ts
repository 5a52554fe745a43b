import { z } from 'zod';
import { REFUND_REQUEST_SOURCES, REFUND_REQUEST_STATUSES } from '@/db/schema/refund-requests';
import { NullableTimestamp, PageQuery, paged } from '@/lib/api/schemas';
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
    .describe(
      'Why an automatic refund (auto-refund policy) has not been made yet: awaiting_settlement, a control (withdrawal_limit_exceeded...), or why it never will and waits for you: manual_source (the proposer knew only the invoice id), before_policy (paid before the policy was switched on), over_auto_refund_bound, unpaid_invoice. Null otherwise.',
    ),
  source: z
    .enum(REFUND_REQUEST_SOURCES)
    .describe(
      'How the proposer proved they may direct the refund: payer_token (the checkout link given to the payer), claim_link (a refund claim link you issued) or invoice_link (knew only the invoice id: unverified, never auto-refunded).',
    ),
  autoRefundAfter: NullableTimestamp.describe(
    'When the auto-refund policy may refund it (created + your delay; decline before then to stop it); null: never automatic, you decide.',
  ),
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
