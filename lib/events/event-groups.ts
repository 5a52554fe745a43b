import { EVENT_TYPES } from './types';

/**
 * The event types as the endpoint form's picker groups them: every type the delivery filter lists is in exactly one
 * group (issue 45: the picker lacked held_payment.*, then payment.*, payout.* and subscription.*, while the filter
 * listed them). event-groups.test.ts holds it to EVENT_TYPES.
 */
export const EVENT_GROUPS = [
  { label: 'Invoice', prefix: 'invoice.' },
  { label: 'Withdrawal', prefix: 'withdrawal.' },
  { label: 'Order', prefix: 'order.' },
  { label: 'Refund request', prefix: 'refund_request.' },
  { label: 'Held payment', prefix: 'held_payment.' },
  { label: 'Payment screening', prefix: 'payment.' },
  { label: 'Payout', prefix: 'payout.' },
  { label: 'Subscription', prefix: 'subscription.' },
].map((g) => ({ ...g, types: EVENT_TYPES.filter((t) => t.startsWith(g.prefix)) }));
