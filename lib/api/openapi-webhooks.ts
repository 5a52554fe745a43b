import { ALL_EVENT_TYPES, EVENT_ENVELOPES, eventSchemaName, type AnyEventType } from '@/lib/events/payloads';
import { TEST_EVENT_TYPE } from '@/lib/events/types';
import type { Json, SchemaComponents } from './openapi-components';

const WHEN: Record<AnyEventType, string> = {
  'invoice.created': 'A new invoice was created (status PENDING).',
  'invoice.detected': 'A payment to the invoice was seen on chain (0 confirmations). Do not fulfil yet.',
  'invoice.partial': 'Less than the expected amount was received (status PARTIALLY_PAID).',
  'invoice.overpaid': 'More than the expected amount was received.',
  'invoice.confirmed': 'The payment has the required confirmations; settlement follows.',
  'invoice.processing_payout': 'Settlement (sweep and split) started.',
  'invoice.paid_out':
    'A settlement was credited to your balance. Fulfil the order on this event when data.status is PAID_OUT, once per invoiceId (a later extra payment to a PAID_OUT invoice writes another one). ' +
    'It is also written for the settlement of a late payment or of a partial payment on an expired invoice: then data.status stays EXPIRED, the customer did not pay in time or in full, and nothing should be fulfilled automatically.',
  'invoice.expired': 'The invoice expired without full payment.',
  'invoice.failed': 'Settlement failed.',
  'invoice.late_payment': 'A payment arrived after the invoice expired.',
  'withdrawal.created': 'A withdrawal was created. With a postBackUrl, withdrawal events go only to that URL, signed with the postback secret.',
  'withdrawal.completed': 'The withdrawal was confirmed on chain.',
  'withdrawal.failed': 'The withdrawal failed; the amount was returned to the balance.',
  'order.created': 'A storefront order was placed.',
  'order.paid': "The order's invoice was paid: fulfil the order.",
  'order.fulfilled': 'The order was marked fulfilled.',
  'order.cancelled': 'The order was cancelled.',
  [TEST_EVENT_TYPE]: 'Sent only by POST /v1/webhooks/endpoints/{id}/test.',
};

const SIGNATURE_HEADERS: Json[] = [
  { name: 'X-Webhook-Id', in: 'header', required: true, description: 'Event id, equal to the body\'s id: deduplicate on it.', schema: { type: 'string' } },
  { name: 'X-Webhook-Timestamp', in: 'header', required: true, description: 'Milliseconds since the epoch. Reject deliveries more than 5 minutes away from now.', schema: { type: 'string', pattern: '^[0-9]+$' } },
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
export function webhooks(components: SchemaComponents): Record<string, Json> {
  return Object.fromEntries(
    ALL_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `on${eventSchemaName(type)}`,
          summary: type,
          description: WHEN[type],
          tags: ['Webhook events'],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: components.schema(EVENT_ENVELOPES[type], 'output') } } },
          responses: {
            '200': { description: 'Any 2xx acknowledges the delivery; answer at once and process asynchronously.' },
            default: { description: 'Anything else (or no answer within 10 s) is retried, up to 8 attempts, then dead-lettered.' },
          },
        },
      },
    ]),
  );
}
