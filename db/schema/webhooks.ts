import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, mode, tstz } from './columns';
import { tenants } from './tenants';

/** A tenant's webhook receiver in one mode. Deleted endpoints are kept (deletedAt) so the delivery log still names them. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    url: text().notNull(),
    description: text(),
    enabled: boolean().notNull().default(true),
    /** Event type names, or ['*'] for every type. */
    eventsSubscribed: text().array().notNull(),
    /**
     * Signing secret (whsec_...), sealed with SECRETS_ENCRYPTION_KEY (`enc:v1:...`, lib/crypto/secret-box.ts):
     * every delivery needs it back for the HMAC, so it is encrypted, not hashed. Empty once the endpoint is deleted.
     */
    secret: text().notNull(),
    /** The secret before the last rotation (sealed); deliveries carry a second signature with it until previousSecretExpiresAt. */
    previousSecret: text(),
    previousSecretExpiresAt: tstz(),
    /** Why the gateway disabled it (e.g. the receiver answered 410 Gone); null when the tenant did. */
    disabledReason: text(),
    /**
     * The dated API version its events are rendered in (names and payloads, lib/api/versions.ts); null: the
     * tenant's version, so an owner's upgrade moves it too. Set at creation when the key or the request named a
     * version; changeable by PATCH.
     */
    apiVersion: text(),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
    deletedAt: tstz(),
  },
  (t) => [
    /** Endpoint list, the 20-per-tenant-and-mode count and the fan-out's subscriber lookup. */
    index('webhook_endpoints_tenant_mode_idx')
      .on(t.tenantId, t.mode, t.createdAt)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/** The per-tenant (and mode) secret that signs notifications sent to a withdrawal's postBackUrl. */
export const webhookPostbackSecrets = pgTable(
  'webhook_postback_secrets',
  {
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    /** Sealed like the endpoints' secrets (lib/crypto/secret-box.ts). */
    secret: text().notNull(),
    previousSecret: text(),
    previousSecretExpiresAt: tstz(),
    /** Set when the tenant has read this secret (reveal or rotate); reveal works only once. */
    revealedAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.mode] })],
);

export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'DEAD_LETTER'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event to one target (an endpoint, or a withdrawal's postBackUrl): the
 * delivery's log (status, attempts, last error), read by the API, dashboard
 * and console. Workers never scan it: undelivered work lives in the hot
 * queue `webhook_queue` (migration 0021, lib/webhooks/queue.ts), one row per
 * PENDING or FAILED delivery, claimed there with FOR UPDATE SKIP LOCKED and a
 * lease; a crashed worker's claim simply expires.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text().primaryKey(),
    tenantId: text().notNull(),
    mode: mode(),
    eventId: text().notNull(),
    /** Copied from the event for the eventType filter. */
    eventType: text().notNull(),
    /** Null for postBackUrl deliveries. */
    endpointId: text(),
    /** The postBackUrl for postback deliveries; endpoint deliveries use the endpoint's current URL. */
    postBackUrl: text(),
    status: text({ enum: DELIVERY_STATUSES }).notNull().default('PENDING'),
    /** Attempts completed so far (0 to 8). */
    attemptCount: integer().notNull().default(0),
    /** When the next attempt is due (as the queue row says); null once SUCCEEDED or DEAD_LETTER. */
    nextAttemptAt: tstz(),
    lastAttemptAt: tstz(),
    lastError: text(),
    /** Original fan-out only: `<eventId>:<endpointId|postback>`, so a fan-out retried after a crash adds no duplicates. */
    fanoutKey: text(),
    /** The delivery this one replays (replay or recover). */
    replayOf: text(),
    /** Set when recover replayed this delivery, so a second recover does not send it again. */
    supersededBy: text(),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    /** GET /v1/webhooks/deliveries: a tenant's deliveries of one mode, newest first. */
    index('webhook_deliveries_tenant_created_idx').on(t.tenantId, t.mode, t.createdAt.desc()),
    /** Recover (endpoint + window) and the endpointId filter. */
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    /** The eventId filter and replay lookups. */
    index('webhook_deliveries_event_idx').on(t.eventId),
    uniqueIndex('webhook_deliveries_fanout_key_uq').on(t.fanoutKey),
  ],
);

/** One HTTP attempt of a delivery, written with the outcome (a worker killed mid-attempt leaves no row; the attempt is retried). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    deliveryId: text().notNull(),
    /** 1 to 8. */
    number: integer().notNull(),
    attemptedAt: tstz().notNull(),
    /** The URL posted to (endpoint URLs can change between attempts). */
    url: text().notNull(),
    responseStatus: integer(),
    durationMs: integer().notNull(),
    error: text(),
    /** First 4 KB of the response body. */
    responseBody: text(),
    /** The API version the body was rendered in, so the dashboard rebuilds the very bytes sent; null before versions. */
    apiVersion: text(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.number] })],
);

/**
 * The hot queue of webhook deliveries (issue 20): one row per undelivered delivery. Created by hand-written SQL
 * (migrations 0021, 0024) as a table partitioned by LIST (slot) into webhook_queue_0 and _1, which drizzle cannot
 * express; declared here (migration 0037 is a no-op for it) so raw rows are typed (RawRow<typeof webhookQueue>).
 * The rotation (lib/webhooks/rotate-queue.ts) moves live rows to the active slot and TRUNCATEs the other.
 */
export const webhookQueue = pgTable(
  'webhook_queue',
  {
    slot: smallint().notNull(),
    deliveryId: text().notNull(),
    tenantId: text().notNull(),
    mode: text().notNull(),
    eventId: text().notNull(),
    eventType: text().notNull(),
    endpointId: text(),
    postBackUrl: text(),
    /** Endpoint id, or the postBackUrl: what per-receiver limits count. */
    target: text().notNull(),
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: tstz().notNull(),
    /** A worker holds the row until then; past it, another worker may retry the attempt. */
    claimedUntil: tstz(),
    /** Random token of the claiming worker: only it may record the attempt's outcome. */
    claimToken: text(),
  },
  (t) => [
    index('webhook_queue_delivery_idx').on(t.deliveryId),
    index('webhook_queue_tenant_target_due_idx').on(t.tenantId, t.target, t.nextAttemptAt),
  ],
);

/** The one row naming the partition new webhook_queue rows go to (migration 0021). */
export const webhookQueueState = pgTable(
  'webhook_queue_state',
  {
    id: boolean().primaryKey().notNull().default(true),
    slot: smallint().notNull(),
    rotatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [check('webhook_queue_state_id_check', sql`${t.id}`)],
);
