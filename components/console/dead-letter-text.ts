import { MAX_ATTEMPTS } from '@/lib/webhooks/schedule';

/**
 * What the dead letters page says they are. Not only "all 8 attempts used up": a 410 Gone dead-letters after one
 * attempt (and disables the endpoint), and a delivery whose endpoint was disabled or deleted before it was sent has
 * none (lib/webhooks/attempt-delivery.ts); the walk (issue 45) read "used up all 8 attempts" above rows of 1 attempt.
 */
export const DEAD_LETTERS_DESCRIPTION = `Deliveries that will not be retried, across tenants: all ${MAX_ATTEMPTS} attempts failed, the endpoint answered 410 Gone after one (it was disabled), or the endpoint was disabled or deleted before it was sent (no attempt). Each row says how many attempts it had. Replaying sends the event again to the same endpoint as a new delivery.`;
