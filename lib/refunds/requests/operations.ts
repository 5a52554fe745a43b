import { z } from 'zod';
import { DESTINATION_REFUSAL_CODES } from '@/lib/chain/common/destination-refusal';
import { defineOperation } from '@/lib/api/operation';
import { ApproveRefundRequestBody, DeclineRefundRequestBody, ListRefundRequestsQuery, RefundRequestList, RefundRequestSchema } from './schemas';

const tag = 'Invoices';

export const listRefundRequestsOp = defineOperation({
  id: 'listRefundRequests',
  method: 'GET',
  path: '/v1/refund-requests',
  scope: 'withdrawals:read',
  tag,
  summary: 'Refund addresses payers proposed on the checkout, newest first',
  description:
    'A payer whose invoice has something to give back (an overpayment, or a late or partial payment of an expired invoice) can give a refund address on the hosted checkout. Each proposal is PENDING until you approve or decline it (or the auto-refund policy refunds an overpayment); a new proposal supersedes an undecided one (SUPERSEDED). Filter with `status` and `invoiceId`; paged like other lists. See docs/invoices.md#refund-requests.',
  query: ListRefundRequestsQuery,
  response: RefundRequestList,
});

export const getRefundRequestOp = defineOperation({
  id: 'getRefundRequest',
  method: 'GET',
  path: '/v1/refund-requests/:id',
  scope: 'withdrawals:read',
  tag,
  summary: 'Get a refund request',
  params: { id: 'refundRequest' },
  query: z.strictObject({}),
  response: RefundRequestSchema,
});

export const approveRefundRequestOp = defineOperation({
  id: 'approveRefundRequest',
  method: 'POST',
  path: '/v1/refund-requests/:id/approve',
  scope: 'withdrawals:write',
  tag,
  summary: "Refund to the payer's proposed address",
  description:
    "Makes the refund (POST /v1/invoices/{id}/refunds to the payer's address: settled money only, amount + withdrawal fee debited, the same controls) and marks the request APPROVED with its `withdrawalId`, in one transaction. Only a PENDING request can be approved.",
  params: { id: 'refundRequest' },
  body: ApproveRefundRequestBody,
  example: {},
  response: RefundRequestSchema,
  errors: [
    'invalid_state',
    'nothing_to_refund',
    'refund_exceeds_received',
    'insufficient_balance',
    'amount_below_minimum',
    'invalid_amount',
    'destination_own_wallet',
    'destination_token_contract',
    'destination_deposit_address',
    'destination_blacklisted',
    'destination_screened',
    ...DESTINATION_REFUSAL_CODES.filter((c) => c !== 'invalid_address'),
    'service_unavailable',
    'destination_not_allowed',
    'withdrawal_limit_exceeded',
  ],
});

export const declineRefundRequestOp = defineOperation({
  id: 'declineRefundRequest',
  method: 'POST',
  path: '/v1/refund-requests/:id/decline',
  scope: 'withdrawals:write',
  tag,
  summary: 'Decline a refund request',
  description: 'The payer sees your `reason` on the checkout and may give another address. Only a PENDING request can be declined.',
  params: { id: 'refundRequest' },
  body: DeclineRefundRequestBody,
  example: { reason: 'Refunds are made to the original card holder; please contact support.' },
  response: RefundRequestSchema,
  errors: ['invalid_state'],
});
