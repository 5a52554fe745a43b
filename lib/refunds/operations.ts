import { z } from 'zod';
import { DESTINATION_REFUSAL_CODES } from '@/lib/chain/common/destination-refusal';
import { defineOperation } from '@/lib/api/operation';
import { WithdrawalSchema } from '@/lib/withdrawals/schemas';
import { CreateRefundBody, RefundListSchema } from './schemas';

const tag = 'Invoices';

export const createRefundOp = defineOperation({
  id: 'createRefund',
  method: 'POST',
  path: '/v1/invoices/:id/refunds',
  scope: 'withdrawals:write',
  tag,
  summary: "Refund USDT an invoice received to the payer's address",
  description:
    'A withdrawal marked with the invoice (`metadata.refundOfInvoiceId`, also on its withdrawal.* events): the payer receives exactly `amount`; the balance is debited amount + the withdrawal fee, like any withdrawal, and the same controls apply (allow-list, 24 h limit, approval). Only settled money is refundable (confirmed and credited), at most what the invoice settled minus earlier refunds not FAILED; concurrent refunds of one invoice never exceed it. Scope withdrawals:write, because money leaves. See docs/invoices.md#refunds.',
  params: { id: 'invoice' },
  body: CreateRefundBody,
  example: { destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72', amount: '5.00' },
  response: WithdrawalSchema,
  status: 201,
  errors: [
    'refund_exceeds_received',
    'nothing_to_refund',
    'insufficient_balance',
    'amount_below_minimum',
    'invalid_amount',
    'invalid_address',
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

export const listRefundsOp = defineOperation({
  id: 'listRefunds',
  method: 'GET',
  path: '/v1/invoices/:id/refunds',
  scope: 'withdrawals:read',
  tag,
  summary: "An invoice's refunds and what is still refundable",
  params: { id: 'invoice' },
  query: z.strictObject({}),
  response: RefundListSchema,
});
