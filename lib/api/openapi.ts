import { ERROR_STATUS, reasonPhrase, type ErrorCode } from './errors';
import type { Operation } from './operation';
import { SchemaComponents, type Json } from './openapi-components';
import { codeSamples } from './openapi-samples';
import { webhooks, type WebhookDoc } from './openapi-webhooks';
import { ErrorSchema } from './schemas';
import { API_VERSIONS, API_VERSION_HEADER, API_VERSION_NAMES, LATEST_API_VERSION } from './versions';

/** Codes every operation can answer: authentication, rate limits, scope, query validation. */
const COMMON_ERRORS: ErrorCode[] = [
  'invalid_api_key',
  'https_required',
  'tenant_suspended',
  'insufficient_scope',
  'rate_limited',
  'too_many_failed_auth',
  'validation_failed',
  'unknown_api_version',
];
/** Codes of reading a request body (every method but GET, lib/api/request.ts). */
const BODY_ERRORS: ErrorCode[] = ['invalid_json', 'request_aborted', 'payload_too_large', 'unsupported_media_type'];
/** Codes of the Idempotency-Key header (POST only, lib/api/idempotency.ts). */
const IDEMPOTENCY_ERRORS: ErrorCode[] = ['idempotency_key_reused', 'idempotency_key_in_use'];

/** Error codes an operation can answer, by HTTP status: what the document and the conformance check declare. */
export function errorCodesByStatus(op: Operation): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...(op.errors ?? [])]);
  if (op.method !== 'GET') BODY_ERRORS.forEach((c) => codes.add(c));
  if (op.method === 'POST') IDEMPOTENCY_ERRORS.forEach((c) => codes.add(c));
  if (op.params || op.testOnly) codes.add('not_found');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests per minute allowed for the key.' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left in the current window.' },
  'X-RateLimit-Reset': { schema: { type: 'integer' }, description: 'Unix epoch seconds when the current one-minute window ends.' },
};
const RETRY_AFTER_HEADER = {
  'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying (sent with rate_limited and too_many_failed_auth).' },
};
const REQUEST_ID_HEADER = { 'X-Request-Id': { schema: { type: 'string' }, description: 'Quote it when contacting support.' } };
const VERSION_HEADER = {
  [API_VERSION_HEADER]: {
    schema: { type: 'string', enum: API_VERSION_NAMES },
    description: 'The API version this response is rendered in (absent when the request failed before its key was known).',
  },
};
const VERSION_PARAMETER = {
  name: API_VERSION_HEADER,
  in: 'header',
  required: false,
  description: `The dated API version of this request, instead of the key's or the account's (${LATEST_API_VERSION} is the latest, and what this document describes). An unknown version is 400 unknown_api_version. See the versions in the description above.`,
  schema: { type: 'string', enum: API_VERSION_NAMES },
};

/** The description's account of the versions: what each one changed. */
function versionsText(): string {
  const lines = API_VERSIONS.map(
    (v) =>
      `- \`${v.version}\`: ${v.title}.${v.changes.length ? ' ' + v.changes.join(' ') : ''}${v.version === LATEST_API_VERSION ? ' (Latest: this document.)' : ''}`,
  );
  return [
    `**Versions.** Breaking changes ship as dated versions; this document describes \`${LATEST_API_VERSION}\`. A request uses the \`${API_VERSION_HEADER}\` header's version, else its key's, else the account's (GET /v1/tenants/me \`apiVersion\`), and every authenticated response names it in \`${API_VERSION_HEADER}\`. Webhook endpoints render events in their own version (the envelope's \`apiVersion\`). Policy and upgrades: docs/api.md#versions.`,
    ...lines,
  ].join('\n');
}

function scopeText(op: Operation) {
  if (!op.scope) return 'Any valid key.';
  return op.scope === 'admin' ? 'Scope: `admin`.' : `Scope: \`${op.scope}\` (or \`admin\`).`;
}

function successDescription(status: number) {
  return status === 201 ? 'Created' : status === 202 ? 'Accepted: the work is queued' : 'OK';
}

function queryParameters(op: Operation, components: SchemaComponents): Json[] {
  if (!op.query) return [];
  // Filled in by components.build(): a placeholder now, split into parameters by expandQueries().
  return [{ 'x-query': components.schema(op.query, 'input') }];
}

/** Replaces each query placeholder with one parameter per property of the converted schema. */
function expandQueries(paths: Record<string, Record<string, Json>>) {
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const params = op.parameters as Json[];
      op.parameters = params.flatMap((p) => {
        if (!p['x-query']) return [p];
        const schema = p['x-query'] as { properties?: Record<string, Json>; required?: string[] };
        return Object.entries(schema.properties ?? {}).map(([name, s]) => {
          const { description, ...rest } = s;
          return { name, in: 'query', required: schema.required?.includes(name) ?? false, ...(description ? { description } : {}), schema: rest };
        });
      });
    }
  }
}

function operationObject(op: Operation, components: SchemaComponents, errorRef: Json): Json {
  const status = op.status ?? 200;
  const parameters = [
    ...Object.entries(op.params ?? {}).map(([name, kind]) => ({
      name,
      in: 'path',
      required: true,
      description: `A ${kind} id.`,
      schema: { type: 'string', maxLength: 64 },
    })),
    ...queryParameters(op, components),
    VERSION_PARAMETER,
    ...(op.method === 'POST'
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Up to 255 characters. Replays the first response for 24 hours; a 429 or 5xx is not remembered, so a retry with the key runs again.',
            schema: { type: 'string', minLength: 1, maxLength: 255 },
          },
        ]
      : []),
  ];
  const errors = Object.fromEntries(
    [...errorCodesByStatus(op)].map(([code, list]) => [
      String(code),
      {
        description: `${reasonPhrase(code)} (code: ${list.join(', ')})`,
        headers: code === 429 ? { ...REQUEST_ID_HEADER, ...RETRY_AFTER_HEADER } : { ...REQUEST_ID_HEADER, ...VERSION_HEADER },
        content: { 'application/json': { schema: errorRef } },
      },
    ]),
  );
  return {
    operationId: op.id,
    summary: op.summary,
    description: [op.description, scopeText(op), op.testOnly ? 'Test mode only: live keys get 404.' : ''].filter(Boolean).join('\n\n'),
    tags: [op.tag],
    ...(op.deprecated ? { deprecated: true } : {}),
    'x-scope': op.scope,
    'x-codeSamples': codeSamples(op),
    parameters,
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: components.schema(op.body, 'input'), ...(op.example ? { example: op.example } : {}) } },
          },
        }
      : {}),
    responses: {
      [String(status)]: {
        description: successDescription(status),
        headers: {
          ...REQUEST_ID_HEADER,
          ...VERSION_HEADER,
          ...RATE_LIMIT_HEADERS,
          ...(op.produces ? { 'Content-Disposition': CONTENT_DISPOSITION } : {}),
        },
        content: op.produces
          ? { [op.produces]: { schema: { type: 'string' } } }
          : { 'application/json': { schema: components.schema(op.response, 'output') } },
      },
      ...errors,
    },
  };
}

const CONTENT_DISPOSITION = {
  description: 'attachment; filename="..."',
  schema: { type: 'string' },
};

/** Shown in the reference and required by the linter's tag-description rule; a tag missing here fails lib/api/openapi.test.ts. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Tenant: 'The account the API key belongs to.',
  'API keys': 'Create, list, scope and revoke API keys.',
  Invoices: 'Payment requests with a deposit address; poll them or subscribe to invoice.* webhooks.',
  'Test helpers': 'Test mode only: simulate what the chain would do.',
  Webhooks: 'Endpoints that receive the signed events, their delivery log, replay and the postback secret.',
  Withdrawals: "Balances per asset, and withdrawals on any enabled rail to an address in that network's own form (0x… on EVM networks, T… on TRON).",
  Payouts: 'Batch payouts: many withdrawals reserved in one transaction, all or nothing (extension, docs/payouts.md).',
  'Payment links': 'Reusable public pages (`/l/<slug>`) where each payer gets an invoice of their own.',
  Subscriptions: 'Plans and the subscriptions billed by them, an invoice each period (extension, docs/subscriptions.md).',
  'Storefront orders': 'Orders of the hosted store; each has an invoice.',
  'Storefront products': 'Products of the hosted store.',
  'Exchange withdrawals': 'Withdrawals in other currencies through the exchange service.',
  'Balance transactions': 'Every ledger entry of the balance, and statements of a period (CSV) that add up to the cent.',
};

const cache = new WeakMap<Operation[], WeakMap<WebhookDoc[], ReturnType<typeof build>>>();
const NO_WEBHOOKS: WebhookDoc[] = [];

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the handlers
 * enforce: pass OPERATIONS (lib/operations.ts) and WEBHOOK_EVENTS
 * (lib/events/webhook-docs.ts). Built once per pair of lists: the conformance
 * check of the tests reads it on every call.
 */
export function buildOpenApiDocument(operations: Operation[], events: WebhookDoc[] = NO_WEBHOOKS) {
  let byEvents = cache.get(operations);
  if (!byEvents) cache.set(operations, (byEvents = new WeakMap()));
  let doc = byEvents.get(events);
  if (!doc) byEvents.set(events, (doc = build(operations, events)));
  return doc;
}

function build(operations: Operation[], events: WebhookDoc[]) {
  const components = new SchemaComponents();
  const errorRef = components.schema(ErrorSchema, 'output');
  const paths: Record<string, Record<string, Json>> = {};
  // Sorted: module namespaces enumerate their exports in a loader-dependent order, and generated code must not churn.
  const sorted = [...operations].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  for (const op of sorted) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = operationObject(op, components, errorRef);
  }
  const hooks = webhooks(components, events);
  const schemas = components.build();
  expandQueries(paths);
  const tags = [...new Set(sorted.map((o) => o.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Stablecoin Payment Gateway API',
      version: LATEST_API_VERSION,
      description: [
        'Authenticate with `Authorization: Bearer gw_live_...` or `gw_test_...`; test keys work on test mode data only. Errors share one shape (`Error`): `{statusCode, error, message, code, details?, requestId}`. Webhook deliveries are listed under webhooks.',
        versionsText(),
      ].join('\n\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This gateway' }],
    security: [{ bearer: [] }],
    tags: [
      ...tags,
      { name: 'Webhook events', description: 'Deliveries the gateway POSTs to your endpoints, signed (see the X-Webhook-Signature header).' },
    ],
    paths,
    webhooks: hooks,
    'x-api-versions': API_VERSIONS.map((v) => ({ version: v.version, title: v.title, changes: v.changes })),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key (gw_live_... or gw_test_...)' } },
      schemas,
    },
  };
}
