import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import {
  CreateWebhookEndpointBody,
  DeletedSchema,
  DeliverySchema,
  ListDeliveriesQuery,
  PostbackSecretSchema,
  PostbackSecretWithSecretSchema,
  RecoverBody,
  ReplayBody,
  ReplayResultSchema,
  RotateSecretBody,
  TestResultSchema,
  UpdateWebhookEndpointBody,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from './schemas';
import { paged } from '@/lib/api/schemas';

const tag = 'Webhooks';
const scope = 'webhooks:manage' as const;
const params = { id: 'webhookEndpoint' } as const;

export const createWebhookEndpointOp = defineOperation({
  id: 'createWebhookEndpoint',
  method: 'POST',
  path: '/v1/webhooks/endpoints',
  scope,
  tag,
  summary: 'Create a webhook endpoint',
  description:
    "Returns the signing secret once. HTTPS is required in live mode; at most 20 endpoints per tenant and mode. Its events are rendered in apiVersion when given, else in the version the request named (Gateway-Version or the key's own), else in the account's, which it then follows.",
  body: CreateWebhookEndpointBody,
  example: { url: 'https://example.com/webhooks/gateway', eventsSubscribed: ['invoice.paid_out', 'invoice.expired'], description: 'Order service' },
  response: WebhookEndpointWithSecretSchema,
  status: 201,
  secretFields: ['secret'],
  errors: ['invalid_url', 'limit_exceeded', 'secret_not_replayable'],
});

export const listWebhookEndpointsOp = defineOperation({
  id: 'listWebhookEndpoints',
  method: 'GET',
  path: '/v1/webhooks/endpoints',
  scope,
  tag,
  summary: "List the tenant's endpoints of the calling key's mode (no secrets)",
  query: z.strictObject({}),
  response: WebhookEndpointListSchema,
});

export const getWebhookEndpointOp = defineOperation({
  id: 'getWebhookEndpoint',
  method: 'GET',
  path: '/v1/webhooks/endpoints/:id',
  scope,
  tag,
  params,
  summary: 'Get an endpoint (no secret)',
  query: z.strictObject({}),
  response: WebhookEndpointSchema,
});

export const updateWebhookEndpointOp = defineOperation({
  id: 'updateWebhookEndpoint',
  method: 'PATCH',
  path: '/v1/webhooks/endpoints/:id',
  scope,
  tag,
  params,
  summary: 'Change url, enabled, eventsSubscribed, description or apiVersion',
  description: "apiVersion applies from the endpoint's next attempt, queued deliveries included; null makes it follow the account's version.",
  body: UpdateWebhookEndpointBody,
  example: { enabled: false },
  response: WebhookEndpointSchema,
  errors: ['invalid_url'],
});

export const deleteWebhookEndpointOp = defineOperation({
  id: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/v1/webhooks/endpoints/:id',
  scope,
  tag,
  params,
  summary: 'Delete an endpoint',
  description: 'It stops receiving at once; queued deliveries to it are closed unsent.',
  response: DeletedSchema,
});

export const rotateWebhookSecretOp = defineOperation({
  id: 'rotateWebhookSecret',
  method: 'POST',
  path: '/v1/webhooks/endpoints/:id/rotate-secret',
  scope,
  tag,
  params,
  summary: 'Rotate the signing secret',
  description: 'Returns the new secret once. With graceHours (0 to 72) deliveries carry `v1=<new>,v1=<old>` until the grace period ends.',
  body: RotateSecretBody,
  example: { graceHours: 24 },
  response: WebhookEndpointWithSecretSchema,
  secretFields: ['secret'],
  errors: ['secret_not_replayable'],
});

export const testWebhookEndpointOp = defineOperation({
  id: 'testWebhookEndpoint',
  method: 'POST',
  path: '/v1/webhooks/endpoints/:id/test',
  scope,
  tag,
  params,
  summary: 'Send a webhook.test event now and return the outcome',
  description: 'Single attempt, never retried; logged in the deliveries.',
  response: TestResultSchema,
});

export const recoverWebhookDeliveriesOp = defineOperation({
  id: 'recoverWebhookDeliveries',
  method: 'POST',
  path: '/v1/webhooks/endpoints/:id/recover',
  scope,
  tag,
  params,
  summary: 'Replay every failed or dead-lettered delivery of the endpoint in a time window',
  description:
    'One new delivery per event, fresh schedule. Originals are marked superseded, so a second call sends nothing twice. Up to 1,000 events per call (hasMore).',
  body: RecoverBody,
  example: { since: '2026-01-01T00:00:00.000Z' },
  response: ReplayResultSchema.extend({ hasMore: z.boolean() }),
  status: 202,
  errors: ['invalid_state'],
});

export const replayWebhookEventOp = defineOperation({
  id: 'replayWebhookEvent',
  method: 'POST',
  path: '/v1/webhooks/replay/:eventId',
  scope,
  tag,
  params: { eventId: 'event' },
  summary: 'Replay an event, including a dead-lettered one',
  description:
    'New deliveries with a fresh schedule to the endpoints subscribed now, or to endpointId only. Withdrawal events with a postBackUrl go to that URL.',
  body: ReplayBody,
  example: {},
  response: ReplayResultSchema,
  status: 202,
  errors: ['invalid_state'],
});

export const listWebhookDeliveriesOp = defineOperation({
  id: 'listWebhookDeliveries',
  method: 'GET',
  path: '/v1/webhooks/deliveries',
  scope,
  tag,
  summary: 'Delivery log: deliveries with their attempts, newest first',
  query: ListDeliveriesQuery,
  response: paged(DeliverySchema),
});

export const getPostbackSecretOp = defineOperation({
  id: 'getPostbackSecret',
  method: 'GET',
  path: '/v1/webhooks/postback-secret',
  scope,
  tag,
  summary: 'Postback secret metadata (never the secret)',
  query: z.strictObject({}),
  response: PostbackSecretSchema,
});

export const revealPostbackSecretOp = defineOperation({
  id: 'revealPostbackSecret',
  method: 'POST',
  path: '/v1/webhooks/postback-secret/reveal',
  scope,
  tag,
  summary: 'Show the postback secret once',
  description: 'Signs notifications sent to withdrawal postBackUrls. A second reveal is a 409: rotate instead.',
  response: PostbackSecretWithSecretSchema,
  secretFields: ['secret'],
  errors: ['invalid_state', 'secret_not_replayable'],
});

export const rotatePostbackSecretOp = defineOperation({
  id: 'rotatePostbackSecret',
  method: 'POST',
  path: '/v1/webhooks/postback-secret/rotate',
  scope,
  tag,
  summary: 'Rotate the postback secret and return the new one once',
  body: RotateSecretBody,
  example: { graceHours: 0 },
  response: PostbackSecretWithSecretSchema,
  secretFields: ['secret'],
  errors: ['secret_not_replayable'],
});
