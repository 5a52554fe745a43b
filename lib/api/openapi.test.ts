import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '@/lib/events/types';
import { generateTypes, TYPES_FILE } from '@/scripts/openapi-types';
import { buildOpenApiDocument } from './openapi';
import { OPERATIONS } from '@/lib/operations';
import { WEBHOOK_EVENTS } from '@/lib/events/webhook-docs';

/*
 * The document integrators feed to generators, checked with tools that are
 * not ours: the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator),
 * Redocly's `recommended` ruleset (@redocly/openapi-core; warnings fail too,
 * no rule is turned off) and openapi-typescript. All offline.
 */
const doc = () => structuredClone(buildOpenApiDocument(OPERATIONS, WEBHOOK_EVENTS)) as any;

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  return out;
}

describe('/v1/openapi.json', () => {
  it('validates against the OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(doc());
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('shows no safe-integer bound where a viewer takes its example (/docs once showed -9007199254740991 for counts)', () => {
    const found: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}/${i}`));
      else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
      else if (node === Number.MAX_SAFE_INTEGER || node === Number.MIN_SAFE_INTEGER) found.push(at);
    };
    walk(doc(), '');
    expect(found).toEqual([]);
    // The list envelope's counts carry examples of their own.
    const meta = doc().paths['/v1/invoices'].get.responses['200'].content['application/json'].schema.properties.meta.properties;
    expect([meta.total.examples, meta.page.examples, meta.lastPage.examples]).toEqual([[42], [1], [3]]);
  });

  it("lints clean with Redocly's recommended ruleset", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc()), absoluteRef: '/openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it('resolves every $ref from the document root, and keeps no nested $defs', () => {
    const d = doc();
    const all = refs(d);
    expect(all.length).toBeGreaterThan(50);
    for (const ref of all) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z0-9]+$/);
      expect(d.components.schemas[ref.split('/').pop()!], ref).toBeTruthy();
    }
    expect(JSON.stringify(d)).not.toContain('$defs');
  });

  it('declares every operation once, with its success status and the shared error schema', () => {
    const d = doc();
    const ids = new Set<string>();
    for (const op of OPERATIONS) {
      const o = d.paths[op.path.replace(/:(\w+)/g, '{$1}')][op.method.toLowerCase()];
      expect(o.operationId).toBe(op.id);
      expect(o.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(o.operationId);
      expect(Object.keys(o.responses)).toContain(String(op.status ?? 200));
      for (const [status, r] of Object.entries<any>(o.responses)) {
        if (Number(status) >= 400) expect(r.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (op.body) expect(o.requestBody.content['application/json'].schema).toBeTruthy();
      for (const p of Object.keys(op.params ?? {})) expect(o.parameters.find((x: any) => x.in === 'path' && x.name === p)).toBeTruthy();
    }
    expect(ids.size).toBe(OPERATIONS.length);
    expect(d.paths['/v1/invoices'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'status']));
    expect(d.paths['/v1/invoices'].post.responses['201']).toBeTruthy();
    expect(d.paths['/v1/webhooks/replay/{eventId}'].post.responses['202']).toBeTruthy();
  });

  it('lists every webhook event with its envelope and the signature headers', () => {
    const d = doc();
    expect(Object.keys(d.webhooks).sort()).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE].sort());
    for (const [type, item] of Object.entries<any>(d.webhooks)) {
      const ref = item.post.requestBody.content['application/json'].schema.$ref as string;
      const envelope = d.components.schemas[ref.split('/').pop()!];
      expect(envelope.properties.type).toEqual({ type: 'string', const: type });
      expect(item.post.parameters.map((p: any) => p.name)).toEqual(['X-Webhook-Id', 'X-Webhook-Timestamp', 'X-Webhook-Signature', 'X-Tenant-Id']);
    }
    expect(d.components.schemas.WithdrawalEventData.required).toContain('netAmount');
    expect(d.components.schemas.OrderEventData.required).toContain('invoiceId');
  });

  it('generates TypeScript with openapi-typescript, equal to the committed examples/client/schema.d.ts', async () => {
    const generated = await generateTypes();
    expect(generated).toContain('"/v1/invoices"');
    expect(generated).toContain('webhooks');
    // Out of date: run `npm run openapi:types` and commit the result.
    expect(readFileSync(TYPES_FILE, 'utf8') === generated, 'examples/client/schema.d.ts is stale: npm run openapi:types').toBe(true);
  });
});
