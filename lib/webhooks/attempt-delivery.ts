import { eq } from 'drizzle-orm';
import type { BlockList } from 'node:net';
import { webhookEndpoints, type DeliveryStatus } from '@/db/schema';
import { renderingOf } from '@/lib/api/version-renderings';
import type { Db } from '@/lib/db';
import { TEST_EVENT_TYPE } from '@/lib/events/types';
import { log } from '@/lib/log';
import type { ClaimedDelivery } from './claim-deliveries';
import { openEndpointSecret } from './open-endpoint-secret';
import { postbackSigningSecrets } from './postback-signing-secrets';
import { recordAttempts, type AttemptRecord } from './record-attempts';
import { nextAttemptAt, parseRetryAfter } from './schedule';
import { sendWebhook, type SendOutcome } from './send-webhook';
import { signatureHeader } from './sign';

export interface AttemptOptions {
  now?: Date;
  allow?: BlockList;
  timeoutMs?: number;
  /** Where outcomes are written; the delivery loop passes a batching recorder. */
  record?: (r: AttemptRecord) => Promise<boolean>;
  /** The transport; the bench swaps in an instant answer to measure the database path alone. */
  send?: typeof sendWebhook;
}

const recordOne = async (db: Db, r: AttemptRecord) => (await recordAttempts(db, [r])).has(r.deliveryId);

export interface AttemptResult {
  deliveryId: string;
  status: DeliveryStatus;
  number: number | null;
  outcome: SendOutcome | null;
  /** False when another worker had taken the delivery over (our claim expired): nothing was recorded. */
  recorded: boolean;
}

/**
 * The envelope of the spec, {id, type, createdAt, data}, with the apiVersion it is rendered in, signed as sent.
 * The data goes in as the stored jsonb's text, never parsed and serialized again: that was a fifth of the
 * worker's CPU per delivery (issue 33). An older version's names and payloads (lib/api/versions.ts) are two map
 * lookups; only a payload an older version shaped differently is parsed, and only for endpoints on that version.
 */
export function envelopeBody(d: Pick<ClaimedDelivery, 'eventId' | 'eventType' | 'eventCreatedAt' | 'eventDataJson' | 'apiVersion'>): string {
  const r = renderingOf(d.apiVersion);
  const type = r.eventTypes.get(d.eventType) ?? d.eventType;
  const reshape = r.eventData.size === 0 ? undefined : r.eventData.get(d.eventType);
  const data = reshape ? JSON.stringify(reshape(JSON.parse(d.eventDataJson))) : d.eventDataJson;
  return `{"id":${JSON.stringify(d.eventId)},"type":${JSON.stringify(type)},"apiVersion":"${r.version}","createdAt":"${d.eventCreatedAt.toISOString()}","data":${data}}`;
}

/**
 * Makes one attempt of a claimed delivery and records it: 2xx succeeds; 410
 * disables the endpoint and dead-letters; anything else is retried on the
 * schedule until the 8th failure. Test events get a single attempt.
 */
export async function attemptDelivery(db: Db, d: ClaimedDelivery, opts: AttemptOptions = {}): Promise<AttemptResult> {
  const now = opts.now ?? new Date();
  const save = (r: AttemptRecord) => (opts.record ? opts.record(r) : recordOne(db, r));
  if (d.endpointId && !d.endpointActive) {
    // Disabled or deleted since the delivery was queued: close it unsent; recover can resend it later.
    const recorded = await save({
      deliveryId: d.id,
      token: d.token,
      status: 'DEAD_LETTER',
      nextAttemptAt: null,
      lastError: 'endpoint disabled or deleted; not sent',
      attempt: null,
    });
    return { deliveryId: d.id, status: 'DEAD_LETTER', number: null, outcome: null, recorded };
  }
  const url = (d.postBackUrl ?? d.url)!;
  const secrets = d.endpointId
    ? [
        openEndpointSecret(d.secret!),
        ...(d.previousSecret && d.previousSecretExpiresAt && d.previousSecretExpiresAt > now ? [openEndpointSecret(d.previousSecret)] : []),
      ]
    : await postbackSigningSecrets(db, { tenantId: d.tenantId, mode: d.mode }, now);
  const body = envelopeBody(d);
  const timestamp = now.getTime();
  const outcome = await (opts.send ?? sendWebhook)({
    url,
    body,
    timeoutMs: opts.timeoutMs,
    allow: opts.allow,
    headers: {
      'Content-Type': 'application/json',
      'X-Webhook-Id': d.eventId,
      'X-Webhook-Timestamp': String(timestamp),
      'X-Webhook-Signature': signatureHeader(secrets, timestamp, body),
      'X-Tenant-Id': d.tenantId,
    },
  });

  const number = d.attemptCount + 1;
  let status: DeliveryStatus;
  let next: Date | null = null;
  let error = outcome.ok ? null : (outcome.error ?? `HTTP ${outcome.status}`);
  if (outcome.ok) {
    status = 'SUCCEEDED';
  } else if (outcome.status === 410 && d.endpointId) {
    status = 'DEAD_LETTER';
    error = '410 Gone: the endpoint was disabled';
    await db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: 'receiver answered 410 Gone', updatedAt: now })
      .where(eq(webhookEndpoints.id, d.endpointId));
    log.warn('webhook endpoint disabled after 410', { endpointId: d.endpointId, deliveryId: d.id });
  } else {
    next = d.eventType === TEST_EVENT_TYPE ? null : nextAttemptAt(number, now, parseRetryAfter(outcome.retryAfter, now));
    status = next ? 'FAILED' : 'DEAD_LETTER';
  }
  const recorded = await save({
    deliveryId: d.id,
    token: d.token,
    status,
    nextAttemptAt: next,
    lastError: error,
    attempt: { number, startedAt: now, url, outcome, error, apiVersion: renderingOf(d.apiVersion).version },
  });
  return { deliveryId: d.id, status, number, outcome, recorded };
}
