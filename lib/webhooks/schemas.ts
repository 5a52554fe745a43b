import { z } from 'zod';
import { NullableTimestamp, Timestamp } from '@/lib/api/schemas';
import { ApiVersionSchema } from '@/lib/api/versions';
import { DELIVERY_STATUSES } from '@/db/schema/webhooks';
import { EVENT_TYPES, RENAMED_EVENT_TYPES, type EventType } from '@/lib/events/types';

// An old name of a renamed type (RENAMED_EVENT_TYPES) is accepted and stored as the new one.
const EventTypeOrAll = z
  .enum(['*', ...EVENT_TYPES, ...(Object.keys(RENAMED_EVENT_TYPES) as [string, ...string[]])], {
    error: () => `must be "*" or one of: ${EVENT_TYPES.join(', ')}`,
  })
  .transform((t): EventType | '*' => RENAMED_EVENT_TYPES[t] ?? (t as EventType | '*'));

export const EventsSubscribed = z
  .array(EventTypeOrAll)
  .min(1, 'must list at least one event type, or ["*"]')
  .max(EVENT_TYPES.length + 1)
  .refine((s) => new Set(s).size === s.length, 'must not repeat an event type')
  .refine((s) => !s.includes('*') || s.length === 1, '"*" must be alone')
  .describe('Event types to receive, or ["*"] for all. The old names mismatched_payment.* are accepted and stored as held_payment.* (deprecated).');

const Url = z.string().trim().min(1).max(2048).describe('Receiver URL: HTTPS (http://localhost is accepted for test-mode keys outside production).');
const Description = z.string().trim().max(500);
const EndpointApiVersion = ApiVersionSchema.nullable().describe(
  "The dated API version its events are rendered in (type names and data); null: the account's version, which moves when the owner upgrades it. On creation it defaults to the version the request named (Gateway-Version header or the key's own), else null. See docs/webhooks.md#versions.",
);

export const CreateWebhookEndpointBody = z.strictObject({
  url: Url,
  enabled: z.boolean().default(true),
  eventsSubscribed: EventsSubscribed,
  description: Description.optional(),
  apiVersion: EndpointApiVersion.optional(),
});
export type CreateWebhookEndpointInput = z.infer<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = z
  .strictObject({
    url: Url.optional(),
    enabled: z.boolean().optional(),
    eventsSubscribed: EventsSubscribed.optional(),
    description: Description.nullable().optional(),
    apiVersion: EndpointApiVersion.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'must change at least one of url, enabled, eventsSubscribed, description, apiVersion');
export type UpdateWebhookEndpointInput = z.infer<typeof UpdateWebhookEndpointBody>;

export const RotateSecretBody = z.strictObject({
  graceHours: z
    .number()
    .min(0)
    .max(72)
    .default(0)
    .describe('Hours during which deliveries also carry a signature made with the old secret (0 to 72).'),
});

export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    eventsSubscribed: z.array(z.string()).describe("Event types it receives, named in the request's API version."),
    apiVersion: z
      .string()
      .nullable()
      .describe("The API version its events are rendered in (the envelope's apiVersion); null: the account's (GET /v1/tenants/me apiVersion)."),
    disabledReason: z.string().nullable().describe('Set when the gateway disabled the endpoint, e.g. after a 410 Gone.'),
    previousSecretExpiresAt: NullableTimestamp.describe('End of the current rotation grace period, if any.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointView = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().describe('Signing secret (whsec_...). Shown only on creation and rotation.'),
}).meta({ id: 'WebhookEndpointWithSecret' });

export const WebhookEndpointListSchema = z.object({ data: z.array(WebhookEndpointSchema) });
export const DeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

export const TestResultSchema = z
  .object({
    deliveryId: z.string(),
    eventId: z.string(),
    success: z.boolean(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    responseBody: z.string().nullable().describe('First 4 KB of the response.'),
  })
  .meta({ id: 'WebhookTestResult' });

export const AttemptSchema = z.object({
  number: z.number().int(),
  attemptedAt: Timestamp,
  url: z.string(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  responseBody: z.string().nullable(),
  apiVersion: z.string().nullable().describe('The API version the body was rendered in; null for attempts made before versions.'),
});

export const DeliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    endpointId: z.string().nullable(),
    postBackUrl: z.string().nullable(),
    status: z.enum(DELIVERY_STATUSES),
    attemptCount: z.number().int(),
    nextAttemptAt: NullableTimestamp,
    lastError: z.string().nullable(),
    replayOf: z.string().nullable(),
    createdAt: Timestamp,
    attempts: z.array(AttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });
export type DeliveryView = z.infer<typeof DeliverySchema>;

export const ListDeliveriesQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  endpointId: z.string().max(64).optional(),
  eventId: z.string().max(64).optional(),
  eventType: z.string().max(64).optional().describe('Only this event type, under any of its names (a renamed type matches its old and new names).'),
  status: z.enum(DELIVERY_STATUSES).optional(),
});

export const ReplayBody = z.strictObject({
  endpointId: z.string().max(64).optional().describe('Only this endpoint (it need not be subscribed to the type).'),
});

const Instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));
export const RecoverBody = z
  .strictObject({
    since: Instant.describe('Replay failed and dead-lettered deliveries created at or after this instant (ISO 8601).'),
    until: Instant.optional().describe('...and before this one; defaults to now.'),
  })
  .refine((b) => !b.until || b.until > b.since, { message: 'must be after since', path: ['until'] });

export const ReplayResultSchema = z.object({ eventId: z.string().nullable(), deliveryIds: z.array(z.string()) }).meta({ id: 'WebhookReplayResult' });

export const PostbackSecretSchema = z
  .object({
    exists: z.boolean(),
    revealed: z.boolean().describe('Whether the current secret was already shown (reveal works once).'),
    lastFour: z.string().nullable(),
    previousSecretExpiresAt: NullableTimestamp,
    createdAt: NullableTimestamp,
  })
  .meta({ id: 'PostbackSecret' });

export const PostbackSecretWithSecretSchema = PostbackSecretSchema.extend({ secret: z.string() }).meta({ id: 'PostbackSecretWithSecret' });
