/**
 * The spec's 17 event types, then our extensions (refund_request.*: a payer's refund address on the checkout,
 * issue 19), plus webhook.test, sent only by the endpoint test action.
 */
export const EVENT_TYPES = [
  'invoice.created',
  'invoice.detected',
  'invoice.partial',
  'invoice.overpaid',
  'invoice.confirmed',
  'invoice.processing_payout',
  'invoice.paid_out',
  'invoice.expired',
  'invoice.failed',
  'invoice.late_payment',
  'withdrawal.created',
  'withdrawal.completed',
  'withdrawal.failed',
  'order.created',
  'order.paid',
  'order.fulfilled',
  'order.cancelled',
  'refund_request.created',
  'refund_request.approved',
  'refund_request.declined',
  'mismatched_payment.detected',
  'mismatched_payment.credited',
  'mismatched_payment.refunded',
  'mismatched_payment.refund_failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = 'webhook.test';
