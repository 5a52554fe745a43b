import { createHmac } from 'node:crypto';

/** X-API-SIGN: hex HMAC-SHA256 of the exact body bytes, keyed with the API secret. */
export function signBody(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}
