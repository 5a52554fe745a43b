import { timingSafeEqual } from 'node:crypto';
import { signPayload } from './sign';

export interface VerifyWebhookInput {
  /** The endpoint's whsec_ secret (or the postback secret). */
  secret: string;
  /** Request headers: a Headers object or a plain record (any case). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The body exactly as received, before any JSON parsing. */
  rawBody: string | Buffer;
  /** Largest accepted distance between X-Webhook-Timestamp and now; the spec advises 5 minutes. */
  toleranceMs?: number;
  now?: number;
}

export type VerifyWebhookResult =
  | { ok: true; id: string; timestamp: number; event: { id: string; type: string; apiVersion?: string; createdAt: string; data: unknown } }
  | { ok: false; reason: 'missing_headers' | 'bad_timestamp' | 'timestamp_outside_tolerance' | 'bad_signature' | 'bad_body' };

function header(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : headers[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Receiver-side check of a delivery: the timestamp is within tolerance and one
 * of the `v1=` signatures (several during a secret rotation) matches,
 * compared in constant time. Deduplicate on the returned id.
 */
export function verifyWebhook({ secret, headers, rawBody, toleranceMs = 5 * 60_000, now = Date.now() }: VerifyWebhookInput): VerifyWebhookResult {
  const id = header(headers, 'x-webhook-id');
  const ts = header(headers, 'x-webhook-timestamp');
  const sig = header(headers, 'x-webhook-signature');
  if (!id || !ts || !sig) return { ok: false, reason: 'missing_headers' };
  if (!/^\d{1,16}$/.test(ts)) return { ok: false, reason: 'bad_timestamp' };
  const timestamp = Number(ts);
  if (Math.abs(now - timestamp) > toleranceMs) return { ok: false, reason: 'timestamp_outside_tolerance' };
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const expected = Buffer.from(signPayload(secret, ts, body));
  const matches = sig
    .split(',')
    .map((s) => Buffer.from(s.trim()))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  if (!matches) return { ok: false, reason: 'bad_signature' };
  try {
    const event = JSON.parse(body);
    if (event?.id !== id) return { ok: false, reason: 'bad_body' };
    return { ok: true, id, timestamp, event };
  } catch {
    return { ok: false, reason: 'bad_body' };
  }
}
