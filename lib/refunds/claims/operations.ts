import { defineOperation } from '@/lib/api/operation';
import {
  CancelRefundClaimBody,
  CreateRefundClaimBody,
  CreatedRefundClaimSchema,
  ListRefundClaimsQuery,
  RefundClaimList,
  RefundClaimSchema,
} from './schemas';

const tag = 'Invoices';

export const createRefundClaimOp = defineOperation({
  id: 'createRefundClaim',
  method: 'POST',
  path: '/v1/refund-claims',
  scope: 'withdrawals:write',
  tag,
  summary: 'Make a one-time refund claim link for a payer',
  description:
    'For a payer who cannot give a refund address on the checkout (paid from an exchange, lost the page): send them `url` out of band; they enter their address there once, which makes a `claim_link` refund request for `amount` that you approve or decline like any other (POST /v1/refund-requests/{id}/approve refunds `amount` by default). `url` is shown only in this response (only a hash is kept); the link expires after `expiresInHours`. `amount` is at most what a refund of the invoice could give now: settled money, less refunds not FAILED and what other open links promise. Scope withdrawals:write, because it decides where money may go. See docs/invoices.md#refund-claim-links.',
  body: CreateRefundClaimBody,
  example: { invoiceId: 'inv_01JBZ3Q5V4N6M8P0R2T4W6Y8A0', amount: '5.00', expiresInHours: 72 },
  response: CreatedRefundClaimSchema,
  status: 201,
  secretFields: ['url'],
  errors: ['not_found', 'refund_exceeds_received', 'nothing_to_refund', 'amount_below_minimum', 'invalid_amount'],
});

export const listRefundClaimsOp = defineOperation({
  id: 'listRefundClaims',
  method: 'GET',
  path: '/v1/refund-claims',
  scope: 'withdrawals:read',
  tag,
  summary: 'Refund claim links, newest first',
  description:
    'Without their url (shown only at creation). An OPEN link past `expiresAt` is listed EXPIRED. Filter with `invoiceId`; paged like other lists.',
  query: ListRefundClaimsQuery,
  response: RefundClaimList,
});

export const cancelRefundClaimOp = defineOperation({
  id: 'cancelRefundClaim',
  method: 'POST',
  path: '/v1/refund-claims/:id/cancel',
  scope: 'withdrawals:write',
  tag,
  summary: 'Cancel an unused refund claim link',
  description: 'The link stops working at once. Only an OPEN link can be canceled.',
  params: { id: 'refundClaim' },
  body: CancelRefundClaimBody,
  example: {},
  response: RefundClaimSchema,
  errors: ['invalid_state'],
});
