import { RENAMED_TO_LATEST } from '@/lib/api/version-renderings';

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
  'payment.screening_hold',
  'payout.item.completed',
  'payout.item.failed',
  'payout.completed',
  'subscription.created',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.canceled',
  'subscription.payment_failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Event types renamed since they were first published, old → latest name, from the API versions' table
 * (lib/api/versions.ts: 2026-12-01 renamed mismatched_payment.* to held_payment.*). An endpoint subscribed with an
 * old name is stored with the latest one (lib/webhooks/schemas.ts; migration 0040 rewrote stored subscriptions)
 * and receives the name of its API version. Events stored before a rename keep the old name in history.
 */
export const RENAMED_EVENT_TYPES = Object.fromEntries(RENAMED_TO_LATEST) as Readonly<Record<string, EventType>>;
export const TEST_EVENT_TYPE = 'webhook.test';
