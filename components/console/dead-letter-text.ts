import { MAX_ATTEMPTS } from '@/lib/webhooks/schedule';

/**
 * What the dead letters page says they are. Not only "all 8 attempts used up": a 410 Gone dead-letters after one
 * attempt (and disables the endpoint), and a delivery whose endpoint was disabled or deleted before it was sent has
 * none (lib/webhooks/attempt-delivery.ts); the walk (issue 45) read "used up all 8 attempts" above rows of 1 attempt.
 */
export const DEAD_LETTERS_DESCRIPTION = `Deliveries not retried again, across tenants: all ${MAX_ATTEMPTS} attempts failed, a 410 Gone after one (the endpoint was disabled), or the endpoint was disabled or deleted first (no attempt). Replaying sends the event again to the same endpoint as a new delivery.`;
