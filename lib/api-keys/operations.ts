import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { ApiKeyListSchema, ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema, UpdateApiKeyBody } from './schemas';

const tag = 'API keys';

export const createApiKeyOp = defineOperation({
  id: 'createApiKey',
  method: 'POST',
  path: '/v1/api-keys',
  scope: 'admin',
  tag,
  summary: 'Create an API key',
  description:
    'Returns the full secret once. Only its SHA-256 hash, prefix and last four characters are stored. A key creates keys of its own mode only: naming the other mode is a 403 mode_mismatch.',
  body: CreateApiKeyBody,
  example: { name: 'Checkout server', scopes: ['invoices:read', 'invoices:write'], rateLimitRpm: 600 },
  response: CreatedApiKeySchema,
  status: 201,
  secretFields: ['key'],
  errors: ['mode_mismatch', 'secret_not_replayable'],
});

export const listApiKeysOp = defineOperation({
  id: 'listApiKeys',
  method: 'GET',
  path: '/v1/api-keys',
  scope: 'admin',
  tag,
  summary: "List the tenant's keys of the calling key's mode",
  query: z.strictObject({}),
  response: ApiKeyListSchema,
});

export const updateApiKeyOp = defineOperation({
  id: 'updateApiKey',
  method: 'PATCH',
  path: '/v1/api-keys/:id',
  scope: 'admin',
  tag,
  summary: 'Change the name, scopes, rate limit or API version of a key',
  params: { id: 'apiKey' },
  body: UpdateApiKeyBody,
  example: { name: 'Renamed key' },
  response: ApiKeySchema,
  errors: ['invalid_state'],
});

export const revokeApiKeyOp = defineOperation({
  id: 'revokeApiKey',
  method: 'DELETE',
  path: '/v1/api-keys/:id/revoke',
  scope: 'admin',
  tag,
  summary: 'Revoke a key at once',
  description: 'The key stops working on the very next request on every instance. Revoking twice is harmless.',
  params: { id: 'apiKey' },
  response: ApiKeySchema,
});
