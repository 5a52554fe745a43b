import { createHmac } from 'node:crypto';

/** `v1=<hex HMAC-SHA256(secret, timestamp + "." + rawBody)>`, per the spec's Webhook signature section. */
export function signPayload(secret: string, timestampMs: number | string, rawBody: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestampMs}.${rawBody}`).digest('hex')}`;
}

/**
 * The X-Webhook-Signature value: the current secret's signature, then, during
 * a rotation's grace period, the previous secret's (`v1=<new>,v1=<old>`).
 */
export function signatureHeader(secrets: readonly string[], timestampMs: number, rawBody: string): string {
  return secrets.map((s) => signPayload(s, timestampMs, rawBody)).join(',');
}
