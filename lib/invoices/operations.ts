import { defineOperation } from '@/lib/api/operation';
import {
  CreateInvoiceBody,
  CreatedInvoiceSchema,
  InvoiceDetailSchema,
  InvoiceListSchema,
  ListInvoicesQuery,
  PayInvoiceBody,
  PayInvoiceResult,
} from './schemas';
import { z } from 'zod';
import { HeldPaymentEventData } from '@/lib/events/payloads';

const tag = 'Invoices';

export const creditHeldPaymentOp = defineOperation({
  id: 'creditHeldPayment',
  method: 'POST',
  path: '/v1/invoices/:id/held-payments/:paymentId/credit',
  scope: 'invoices:write',
  tag,
  summary: 'Credit a held payment',
  description:
    "Extension. A held payment of the invoice's token made on another network (heldPayments, mismatch `network`) becomes a payment of the invoice, as the `credit` wrong-network policy records it: it moves the invoice's status with the usual events, is confirmed on its own network and swept there. A payment in another token (mismatch `token`) cannot count towards the invoice: it is swept on its own and credited to that token's balance, less the invoice fee (GET /v1/withdrawals/balance?currency=USDC). Anything but a held payment is a 409 invalid_state. See docs/rails.md.",
  params: { id: 'invoice', paymentId: 'payment' },
  body: z.strictObject({}),
  example: {},
  response: HeldPaymentEventData,
  errors: ['invalid_state'],
});

export const refundHeldPaymentOp = defineOperation({
  id: 'refundHeldPayment',
  method: 'POST',
  path: '/v1/invoices/:id/held-payments/:paymentId/refund',
  scope: 'withdrawals:write',
  tag,
  summary: 'Send a held payment back to its sender',
  description:
    'Extension. A held payment (another network or another token) is swept off the deposit address on its own network without the invoice fee, then sent back to the address it came from, on the same network and token, by a withdrawal (withdrawalId on the payment once created; withdrawal.* events follow): the largest amount whose withdrawal fee fits in what was sent. The destination is always the sender, and must be a person: 409 sender_not_refundable when the sender is one of our addresses, a deposit address, a contract or a known exchange hot wallet (send the payer a refund claim link instead); 503 when its code cannot be read. The payment is `refunded` once the withdrawal completes; a failed withdrawal makes it `held` again (refundFailureReason), its money in the balance, and a second send-back creates the withdrawal at once. 409 invalid_state when the payment is not held, or too small to send back after the fee. See docs/rails.md.',
  params: { id: 'invoice', paymentId: 'payment' },
  body: z.strictObject({}),
  example: {},
  response: HeldPaymentEventData,
  errors: ['invalid_state', 'sender_not_refundable', 'service_unavailable'],
});

// The paths before held payments had one name (docs/webhooks.md "Renamed"): the same calls, kept for existing clients.
export const creditMismatchedPaymentOp = defineOperation({
  ...creditHeldPaymentOp,
  id: 'creditMismatchedPayment',
  path: '/v1/invoices/:id/mismatched-payments/:paymentId/credit',
  summary: 'Credit a held payment (deprecated path)',
  description: 'Deprecated: use POST /v1/invoices/:id/held-payments/:paymentId/credit, the same call under the new name.',
  deprecated: true,
});

export const refundMismatchedPaymentOp = defineOperation({
  ...refundHeldPaymentOp,
  id: 'refundMismatchedPayment',
  path: '/v1/invoices/:id/mismatched-payments/:paymentId/refund',
  summary: 'Send a held payment back to its sender (deprecated path)',
  description: 'Deprecated: use POST /v1/invoices/:id/held-payments/:paymentId/refund, the same call under the new name.',
  deprecated: true,
});

export const createInvoiceOp = defineOperation({
  id: 'createInvoice',
  method: 'POST',
  path: '/v1/invoices',
  scope: 'invoices:write',
  tag,
  summary: 'Create an invoice',
  description:
    'Returns a fresh deposit address on the invoice rail (`chain` and `token`; USDT on BSC when omitted). Only `amount` is required. The invoice is PENDING until a payment is seen; see docs/invoices.md for the lifecycle. With `currency` (USD, EUR, GBP, CHF, JPY, CAD, AUD) the amount is a fiat price converted to the token at a rate locked on the invoice; 503 rate_unavailable when no rate is fresh enough.',
  body: CreateInvoiceBody,
  example: { amount: '100.50', externalId: 'order-1042', description: 'Order #1042', metadata: { customerId: 'c_77' } },
  response: CreatedInvoiceSchema,
  status: 201,
  // The claim token is shown once; a replay answers the invoice without it (a retry must still get its invoice).
  secretFields: ['checkoutUrl'],
  replayWithoutSecrets: true,
  errors: ['service_unavailable', 'rate_unavailable'],
});

export const listInvoicesOp = defineOperation({
  id: 'listInvoices',
  method: 'GET',
  path: '/v1/invoices',
  scope: 'invoices:read',
  tag,
  summary: 'List invoices, newest first',
  description: 'Paged: `page` defaults to 1, `limit` to 20 (at most 100). Filters combine with AND.',
  query: ListInvoicesQuery,
  response: InvoiceListSchema,
});

export const getInvoiceOp = defineOperation({
  id: 'getInvoice',
  method: 'GET',
  path: '/v1/invoices/:id',
  scope: 'invoices:read',
  tag,
  summary: 'Fetch an invoice with its payments, settlements and event timeline',
  params: { id: 'invoice' },
  query: z.strictObject({}),
  response: InvoiceDetailSchema,
});

export const payTestInvoiceOp = defineOperation({
  id: 'payTestInvoice',
  method: 'POST',
  path: '/v1/test-helpers/invoices/:id/pay',
  scope: 'invoices:write',
  tag: 'Test helpers',
  summary: 'Pay a test-mode invoice with test USDT',
  description:
    'Test keys only (live keys get 404). Sends a real test-USDT transfer from the faucet to the deposit address on the test chain; the chain watcher then detects it like any payment. Any amount may be sent, to try partial and overpaid flows.',
  params: { id: 'invoice' },
  body: PayInvoiceBody,
  example: { amount: '100.50' },
  response: PayInvoiceResult,
  testOnly: true,
  errors: ['service_unavailable', 'invalid_state'],
});
