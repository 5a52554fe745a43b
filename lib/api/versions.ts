import { z } from 'zod';
import { ApiError } from './errors';

/**
 * Dated API versions (issue 42 §3), as Stripe does: a breaking change ships as a new version; a tenant, a key
 * or a webhook endpoint pinned to an older one keeps receiving what it was built against. The path prefix /v1
 * stays; the version is a date within it. Policy: docs/api.md "Versions".
 */

/** The request header choosing the version of one request; every authenticated response names the version used in it. */
export const API_VERSION_HEADER = 'Gateway-Version';

type Body = Record<string, unknown>;
type Downgrade = (value: Body) => Body;

/**
 * One version and how to show what it changed to a client of the version before it. Everything is stored and
 * computed in the latest version's terms; older versions are rendered on the way out by these downgrades,
 * applied newest first (lib/api/version-renderings.ts), never by rewriting what is stored.
 */
export interface ApiVersionChange {
  /** YYYY-MM-DD: the day it became the version of new tenants. */
  version: string;
  title: string;
  /** What an integration moving to this version must handle (shown on the dashboard's upgrade, the OpenAPI document and docs). */
  changes: readonly string[];
  /** Event types this version renamed: this version's name → the previous version's. */
  eventTypes?: Readonly<Record<string, string>>;
  /**
   * Event payloads this version reshaped, by this version's type name → the previous version's data. Applied to
   * the data as stored (events written in this version's shape).
   */
  eventData?: Readonly<Record<string, Downgrade>>;
  /** API responses this version changed, by operation id → the previous version's body (2xx bodies only). */
  responses?: Readonly<Record<string, Downgrade>>;
}

/** 2026-12-01 renamed these: held payments had two names (issue 31). */
const HELD_PAYMENT_RENAMES = {
  'held_payment.detected': 'mismatched_payment.detected',
  'held_payment.credited': 'mismatched_payment.credited',
  'held_payment.refunded': 'mismatched_payment.refunded',
  'held_payment.refund_failed': 'mismatched_payment.refund_failed',
} as const;
const heldOld = (t: unknown) => (HELD_PAYMENT_RENAMES as Record<string, string>)[t as string] ?? t;
const each = (list: unknown, f: Downgrade) => (list as Body[]).map(f);
const endpointOld: Downgrade = (e) => ({ ...e, eventsSubscribed: (e.eventsSubscribed as string[]).map(heldOld) });

/**
 * Every version, oldest first: the one table of breaking changes. Adding a version: append it here with its
 * downgrades; new tenants get it at once, everyone else keeps theirs until they upgrade (docs/api.md).
 */
export const API_VERSIONS = [
  {
    version: '2026-11-01',
    title: 'The API as first published',
    changes: [],
  },
  {
    version: '2026-12-01',
    title: 'Held payments have one name',
    changes: [
      'The events mismatched_payment.detected, .credited, .refunded and .refund_failed are named held_payment.detected, .credited, .refunded and .refund_failed: in webhooks, in an endpoint’s eventsSubscribed, in the invoice’s events timeline and in the deliveries log. Their data is unchanged.',
      'GET /v1/invoices/:id no longer repeats heldPayments under its old name mismatchedPayments.',
      'The settlement kind mismatched (a held payment swept to be credited to its token’s balance) is held_credit.',
    ],
    eventTypes: HELD_PAYMENT_RENAMES,
    responses: {
      getInvoice: (b) => ({
        ...b,
        settlements: each(b.settlements, (s) => (s.kind === 'held_credit' ? { ...s, kind: 'mismatched' } : s)),
        events: each(b.events, (e) => ({ ...e, type: heldOld(e.type) })),
        mismatchedPayments: b.heldPayments,
      }),
      createWebhookEndpoint: endpointOld,
      getWebhookEndpoint: endpointOld,
      updateWebhookEndpoint: endpointOld,
      rotateWebhookSecret: endpointOld,
      listWebhookEndpoints: (b) => ({ ...b, data: each(b.data, endpointOld) }),
      listWebhookDeliveries: (b) => ({ ...b, data: each(b.data, (d) => ({ ...d, eventType: heldOld(d.eventType) })) }),
    },
  },
] as const satisfies readonly ApiVersionChange[];

export type ApiVersion = (typeof API_VERSIONS)[number]['version'];
export const API_VERSION_NAMES = API_VERSIONS.map((v) => v.version) as [ApiVersion, ...ApiVersion[]];
export const LATEST_API_VERSION: ApiVersion = API_VERSION_NAMES[API_VERSION_NAMES.length - 1]!;
export const OLDEST_API_VERSION: ApiVersion = API_VERSION_NAMES[0];

const KNOWN = new Set<string>(API_VERSION_NAMES);
export const isApiVersion = (v: unknown): v is ApiVersion => typeof v === 'string' && KNOWN.has(v);

/** A version as stored (tenant, key, endpoint): one retired since falls back to the oldest still served. */
export const storedApiVersion = (v: string | null | undefined): ApiVersion | null =>
  v === null || v === undefined ? null : isApiVersion(v) ? v : OLDEST_API_VERSION;

/** Versions after `v`, oldest first: what an upgrade from it changes. */
export const versionsAfter = (v: ApiVersion) => API_VERSIONS.slice(API_VERSION_NAMES.indexOf(v) + 1);

const listed = () => API_VERSION_NAMES.map((v) => (v === LATEST_API_VERSION ? `${v} (latest)` : v)).join(', ');

/** A version asked for (the Gateway-Version header, the upgrade form): an unknown one is a 400, never a silent fallback. */
export function parseApiVersion(value: unknown, where: string = API_VERSION_HEADER): ApiVersion {
  const v = typeof value === 'string' ? value.trim() : value;
  if (isApiVersion(v)) return v;
  throw new ApiError('unknown_api_version', `Unknown API version "${String(value).slice(0, 40)}" in ${where}. Versions: ${listed()}.`, [
    { path: where, message: `must be one of ${API_VERSION_NAMES.join(', ')}` },
  ]);
}

/** A version in a request body (a key's or an endpoint's pin). */
export const ApiVersionSchema = z
  .enum(API_VERSION_NAMES, { error: () => `must be an API version: ${listed()}` })
  .describe(`A dated API version: ${API_VERSION_NAMES.join(', ')}.`);
