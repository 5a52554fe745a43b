import type { WebhookDoc } from '@/lib/api/openapi-webhooks';
import { ALL_EVENT_TYPES, EVENT_ENVELOPES, eventSchemaName, type AnyEventType } from './payloads';
import { TEST_EVENT_TYPE } from './types';

const WHEN: Record<AnyEventType, string> = {
  'invoice.created': 'A new invoice was created (status PENDING).',
  'invoice.detected': 'A payment to the invoice was seen on chain (0 confirmations). Do not fulfil yet.',
  'invoice.partial': 'Less than the expected amount was received (status PARTIALLY_PAID).',
  'invoice.overpaid': 'More than the expected amount was received.',
  'invoice.confirmed': 'The payment has the required confirmations; settlement follows.',
  'invoice.processing_payout': 'Settlement (sweep and split) started.',
  'invoice.paid_out':
    'A settlement was credited to your balance. Fulfil the order on this event when data.status is PAID_OUT, once per invoiceId (a later extra payment to a PAID_OUT invoice writes another one). ' +
    'It is also written for the settlement of a late payment or of a partial payment on an expired invoice: then data.status stays EXPIRED, the customer did not pay in time or in full, and nothing should be fulfilled automatically.',
  'invoice.expired': 'The invoice expired without full payment.',
  'invoice.failed': 'Settlement failed.',
  'invoice.late_payment': 'A payment arrived after the invoice expired.',
  'withdrawal.created': 'A withdrawal was created. With a postBackUrl, withdrawal events go only to that URL, signed with the postback secret.',
  'withdrawal.completed': 'The withdrawal was confirmed on chain.',
  'withdrawal.failed': 'The withdrawal failed; the amount was returned to the balance.',
  'order.created': 'A storefront order was placed.',
  'order.paid': "The order's invoice was paid: fulfil the order.",
  'order.fulfilled': 'The order was marked fulfilled.',
  'order.cancelled': 'The order was cancelled.',
  'refund_request.created':
    'Extension (not in the spec): the payer proposed, on the hosted checkout, an address to refund a late, partial or excess payment to. Approve or decline it in the dashboard or with POST /v1/refund-requests/{id}/approve | decline; with the auto-refund policy on, an overpayment is refunded without you.',
  'refund_request.approved':
    'Extension: the refund was made (data.withdrawalId; its withdrawal.* events follow), by you or by the auto-refund policy (decidedBy "policy").',
  'refund_request.declined': 'Extension: you declined the proposal; data.declineReason is shown to the payer, who may propose again.',
  'held_payment.detected':
    "Extension: a supported token reached an invoice's deposit address on another enabled network than the invoice's, or a token that is not the invoice's (USDC to a USDT invoice). It is held: not counted towards the invoice and not credited; the money stays on the deposit address, which the gateway controls on every EVM network (docs/invoices.md \"Held payments\").",
  'held_payment.credited':
    "Extension: you credited a held payment (POST .../credit or the dashboard): another network's payment of the invoice's token now counts towards the invoice (invoice.* events follow); another token is credited to that token's balance once swept.",
  'held_payment.refunded':
    'Extension: a held payment you chose to send back reached its sender: its withdrawal (data.withdrawalId) to data.refundAddress completed.',
  'held_payment.refund_failed':
    'Extension: sending a held payment back failed (data.refundFailureReason; its withdrawal.failed came first). The payment is held again, its money in your balance of that token: send it back again, or credit it.',
  'payment.screening_hold':
    'Extension: a payment reached an invoice and is held for review by the operator (data.mismatch "screening"): not counted towards the invoice, not credited, not swept onward, never sent back automatically. The operator releases it (then it counts as usual: invoice.* events follow) or keeps it frozen (data.status "frozen").',
  'payout.item.completed':
    'Extension: one item of a batch payout (POST /v1/payouts) was paid: its withdrawal completed (data.withdrawalId, data.txHash).',
  'payout.item.failed':
    'Extension: one item of a batch payout failed: its withdrawal failed and its amount and fee went back to the balance (data.failureReason). The other items are not affected.',
  'payout.completed':
    'Extension: every item of the batch payout reached its final state (data.completed paid, data.failed failed). Written once, after the last item event.',
  'subscription.created':
    'Extension: a subscription was created (POST /v1/subscriptions); data is the subscription. Without a trial its first invoice (data.latestInvoiceId) was created just before (invoice.created).',
  'subscription.renewed':
    'Extension: a new period began (or the trial ended) and its invoice was created (data.latestInvoiceId; invoice.created came first). Written once per period.',
  'subscription.past_due':
    "Extension: the current period's invoice is unpaid after its due date (data.status past_due). Paid later, the subscription is active again; unpaid graceDays later it is canceled.",
  'subscription.canceled':
    'Extension: the subscription ended (data.status canceled): canceled now by you, at the end of its period (cancelAtPeriodEnd), or unpaid after the grace period.',
  'subscription.payment_failed':
    "Extension: the period could not be collected automatically from the payer's wallet (approval revoked, insufficient balance or allowance, the pull reverted); its invoice was e-mailed to the customer instead (data.latestInvoiceId). With the approval revoked automatic collection is off; the subscription goes on.",
  [TEST_EVENT_TYPE]: 'Sent only by POST /v1/webhooks/endpoints/{id}/test.',
};

/** The OpenAPI document's `webhooks`: pass to buildOpenApiDocument with OPERATIONS. */
export const WEBHOOK_EVENTS: WebhookDoc[] = ALL_EVENT_TYPES.map((type) => ({
  type,
  name: eventSchemaName(type),
  description: WHEN[type],
  envelope: EVENT_ENVELOPES[type],
}));
