import type { z } from 'zod';
import type { Json, SchemaComponents } from './openapi-components';

/** One event type an endpoint can receive (lib/events/webhook-docs.ts lists them; lib/api stays below lib/events). */
export interface WebhookDoc {
  type: string;
  /** PascalCase, for the operation id: invoice.paid_out -> InvoicePaidOut. */
  name: string;
  description: string;
  /** The envelope {id, type, createdAt, data}. */
  envelope: z.ZodType;
}

const SIGNATURE_HEADERS: Json[] = [
  {
    name: 'X-Webhook-Id',
    in: 'header',
    required: true,
    description: "Event id, equal to the body's id: deduplicate on it.",
    schema: { type: 'string' },
  },
  {
    name: 'X-Webhook-Timestamp',
    in: 'header',
    required: true,
    description: 'Milliseconds since the epoch. Reject deliveries more than 5 minutes away from now.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'X-Webhook-Signature',
    in: 'header',
    required: true,
    description:
      '`v1=` + hex HMAC-SHA256 keyed with the endpoint secret (whsec_...) over `<X-Webhook-Timestamp>.<raw body>`. During a secret rotation several signatures, comma-separated (`v1=<new>,v1=<old>`): accept if one matches, compared in constant time.',
    schema: { type: 'string', pattern: '^v1=[0-9a-f]{64}(,v1=[0-9a-f]{64})*$' },
  },
  { name: 'X-Tenant-Id', in: 'header', required: true, description: 'Your tenant id.', schema: { type: 'string' } },
];

/** OpenAPI 3.1 `webhooks`: one POST per event type, with its envelope and the signature headers. */
export function webhooks(components: SchemaComponents, events: WebhookDoc[]): Record<string, Json> {
  return Object.fromEntries(
    events.map(({ type, name, description, envelope }) => [
      type,
      {
        post: {
          operationId: `on${name}`,
          summary: type,
          description,
          tags: ['Webhook events'],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: components.schema(envelope, 'output') } } },
          responses: {
            '200': { description: 'Any 2xx acknowledges the delivery; answer at once and process asynchronously.' },
            default: { description: 'Anything else (or no answer within 10 s) is retried, up to 8 attempts, then dead-lettered.' },
          },
        },
      },
    ]),
  );
}
