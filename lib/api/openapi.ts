import { z } from 'zod';
import { ERROR_STATUS, reasonPhrase } from './errors';
import type { Operation } from './operation';
import { ErrorSchema } from './schemas';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  return z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
}

function strip(schema: Record<string, unknown>) {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

const COMMON_ERRORS = ['invalid_api_key', 'insufficient_scope', 'rate_limited', 'validation_failed'] as const;

function errorResponses(op: Operation) {
  const codes = new Set<string>([...COMMON_ERRORS, ...(op.errors ?? [])]);
  if (op.params) codes.add('not_found');
  if (op.method === 'POST') codes.add('idempotency_key_reused');
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code as keyof typeof ERROR_STATUS];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: `${reasonPhrase(status)} (code: ${list.join(', ')})`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
}

function queryParameters(op: Operation) {
  if (!op.query) return [];
  const schema = jsonSchema(op.query, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    description: s.description,
    schema: s,
  }));
}

/** The OpenAPI 3.1 document, generated from the same zod schemas the handlers enforce (pass OPERATIONS from lib/operations.ts). */
export function buildOpenApiDocument(operations: Operation[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = op.path.replace(/:(\w+)/g, '{$1}');
    const parameters = [
      ...Object.keys(op.params ?? {}).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(op),
      ...(op.method === 'POST'
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'Up to 255 characters. Replays the first response for 24 hours.',
              schema: { type: 'string', maxLength: 255 },
            },
          ]
        : []),
    ];
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      description: [op.description, op.scope ? `Scope: \`${op.scope}\` (or \`admin\`).` : 'Any valid key.', op.testOnly ? 'Test mode only.' : '']
        .filter(Boolean)
        .join('\n\n'),
      tags: [op.tag],
      'x-scope': op.scope,
      parameters,
      ...(op.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: strip(jsonSchema(op.body, 'input')), ...(op.example ? { example: op.example } : {}) } } } }
        : {}),
      responses: {
        [String(op.status ?? 200)]: {
          description: 'Success',
          headers: {
            'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests per minute allowed for the key.' },
            'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left in the current window.' },
            'X-RateLimit-Reset': { schema: { type: 'integer' }, description: 'Unix epoch seconds when the current one-minute window ends.' },
          },
          content: { 'application/json': { schema: strip(jsonSchema(op.response, 'output')) } },
        },
        ...errorResponses(op),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'USDT BEP-20 Payment Gateway API',
      version: '1.0.0',
      description:
        'Authenticate with `Authorization: Bearer gw_live_...` or `gw_test_...`. Errors share one shape: `{statusCode, error, message, code, details?, requestId}`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key' } },
      schemas: { Error: strip(jsonSchema(ErrorSchema, 'output')) },
    },
    paths,
  };
}
