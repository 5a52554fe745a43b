/**
 * Example webhook receiver: verify the signature, then decide what to do.
 * Framework-free: give it the raw body (before any JSON parsing) and the headers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './schema';

type Schemas = components['schemas'];
/** Every delivery: a union discriminated on `type` (InvoicePaidOutEvent, WithdrawalFailedEvent, ...). */
export type WebhookEvent = Schemas[Extract<keyof Schemas, `${string}Event`>];

const TOLERANCE_MS = 5 * 60_000;

/** The event if X-Webhook-Signature matches one `v1=` signature and the timestamp is recent; null otherwise (answer 400). */
export function verifyWebhookSignature(
  secret: string,
  headers: Record<string, string | undefined>,
  rawBody: string,
  now = Date.now(),
): WebhookEvent | null {
  const timestamp = headers['x-webhook-timestamp'];
  const signatures = headers['x-webhook-signature'];
  if (!timestamp || !signatures || !/^\d+$/.test(timestamp)) return null;
  if (Math.abs(now - Number(timestamp)) > TOLERANCE_MS) return null;
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`);
  // During a secret rotation the header holds `v1=<new>,v1=<old>`: one match is enough.
  const ok = signatures.split(',').some((s) => {
    const given = Buffer.from(s.trim());
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) return null;
  const event = JSON.parse(rawBody) as WebhookEvent;
  return event.id === headers['x-webhook-id'] ? event : null;
}

export interface Shop {
  /** Must be idempotent per invoice: deliveries are at least once, and an invoice can settle more than once. */
  fulfil(invoiceId: string, amountReceived: string): Promise<void>;
  /** Money arrived but the order must not ship automatically: late or partial payment on an expired invoice. */
  review(invoiceId: string, reason: string): Promise<void>;
}

/**
 * When to fulfil: on invoice.paid_out with data.status PAID_OUT (the funds are
 * settled and credited). invoice.paid_out with data.status EXPIRED is the
 * settlement of a late payment or of a partial payment on an expired invoice:
 * the money is in your balance, but the customer did not pay in time or in full.
 * invoice.detected and invoice.confirmed come earlier and can still fall through.
 */
export async function handleWebhook(event: WebhookEvent, shop: Shop): Promise<void> {
  switch (event.type) {
    case 'invoice.paid_out':
      if (event.data.status === 'PAID_OUT') await shop.fulfil(event.data.invoiceId, event.data.amountReceived);
      else
        await shop.review(
          event.data.invoiceId,
          `settled while ${event.data.status}: ${event.data.amountReceived} of ${event.data.amountExpected} USDT`,
        );
      return;
    case 'invoice.expired':
      return; // release the reserved stock
    case 'withdrawal.failed':
      return; // the amount is back in the balance; alert someone
    default:
      return;
  }
}
