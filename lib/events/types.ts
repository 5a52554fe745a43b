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
  'held_payment.detected',
  'held_payment.credited',
  'held_payment.refunded',
  'held_payment.refund_failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Event types renamed since they were first published (issue 31: held payments had two names), old → new.
 * An endpoint subscribed with an old name is stored with the new one (lib/webhooks/schemas.ts; migration 0040
 * rewrote stored subscriptions). Events sent before the rename keep the old name in history.
 */
export const RENAMED_EVENT_TYPES: Readonly<Record<string, EventType>> = {
  'mismatched_payment.detected': 'held_payment.detected',
  'mismatched_payment.credited': 'held_payment.credited',
  'mismatched_payment.refunded': 'held_payment.refunded',
  'mismatched_payment.refund_failed': 'held_payment.refund_failed',
};
export const TEST_EVENT_TYPE = 'webhook.test';
