import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, mode, tstz } from './columns';
import { tenants } from './tenants';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    name: text().notNull(),
    /** SHA-256 (hex) of the full secret; the secret itself is never stored. */
    keyHash: text().notNull().unique(),
    /** gw_live_ or gw_test_ */
    keyPrefix: text().notNull(),
    /** Last four characters of the secret, to tell keys apart in lists. */
    lastFour: text().notNull(),
    scopes: text().array().notNull(),
    rateLimitRpm: integer().notNull().default(120),
    /** The dated API version this key's requests are rendered in (lib/api/versions.ts); null: the tenant's. */
    apiVersion: text(),
    status: text({ enum: ['ACTIVE', 'REVOKED'] })
      .notNull()
      .default('ACTIVE'),
    expiresAt: tstz(),
    revokedAt: tstz(),
    /** Updated at most once a minute by the authentication query. */
    lastUsedAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    /** GET /v1/api-keys: a tenant's keys of one mode, newest first. */
    index('api_keys_tenant_mode_created_idx').on(t.tenantId, t.mode, t.createdAt.desc()),
  ],
);

/**
 * Fixed one-minute windows per key. The authentication query increments the
 * current window's row in the same round trip that loads the key, so every
 * app instance sees the same count.
 */
export const rateLimitWindows = pgTable(
  'rate_limit_windows',
  {
    keyId: text().notNull(),
    windowStart: tstz().notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);

/** Responses remembered for Idempotency-Key replays (24 hours). */
export const idempotencyRequests = pgTable(
  'idempotency_requests',
  {
    tenantId: text().notNull(),
    mode: mode(),
    idempotencyKey: text().notNull(),
    /** SHA-256 of method, path and raw body: the same key with another request is refused. */
    requestHash: text().notNull(),
    /** in_flight until the first request finishes; a stale in_flight (crashed process) may be taken over. */
    state: text({ enum: ['in_flight', 'done'] }).notNull(),
    responseStatus: integer(),
    responseBody: text(),
    lockedAt: tstz().notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.mode, t.idempotencyKey] }),
    /** Hourly purge of entries older than 24 hours. */
    index('idempotency_created_idx').on(t.createdAt),
  ],
);
