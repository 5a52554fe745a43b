import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tenants } from '@/db/schema';
import { SCOPES, type Scope } from '@/lib/api/scopes';
import { OPERATIONS } from '@/lib/operations';
import type { Operation } from '@/lib/api/operation';
import { call } from '@/lib/testing/app';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';
import { RESOURCE_FACTORIES } from '@/lib/testing/resources';
import type { Db } from '@/lib/db';

/**
 * Generated from the one list of operations: every /v1 route refuses missing,
 * malformed, unknown, revoked and expired keys (401), keys without its scope
 * (403), and ids of other tenants or the other mode (404).
 */
let db: Db;
let a: Awaited<ReturnType<typeof createTestTenant>>;
let b: Awaited<ReturnType<typeof createTestTenant>>;
const keys: Record<string, string> = {};

beforeAll(async () => {
  a = await createTestTenant();
  b = await createTestTenant();
  db = a.db;
  keys.revoked = (await createTestKey(db, { tenantId: a.tenant.id, mode: 'test', scopes: ['admin'], state: 'revoked' })).key;
  keys.expired = (await createTestKey(db, { tenantId: a.tenant.id, mode: 'test', scopes: ['admin'], state: 'expired' })).key;
});

async function pathFor(op: Operation, owner: { tenantId: string; mode: 'live' | 'test' }) {
  let path = op.path;
  for (const [name, kind] of Object.entries(op.params ?? {})) {
    const factory = RESOURCE_FACTORIES[kind];
    if (!factory) throw new Error(`no resource factory for ${kind} (add one to lib/testing/resources.ts)`);
    path = path.replace(`:${name}`, await factory(db, owner));
  }
  return path;
}

function send(op: Operation, path: string, key: string | null, headers: Record<string, string> = {}) {
  return call(op.method, path, { key, body: op.body ? (op.example ?? {}) : undefined, headers });
}

const badKeys: [string, () => string | null, Record<string, string>?][] = [
  ['no key', () => null],
  ['a malformed key', () => 'not-a-key'],
  ['a non-Bearer scheme', () => null, { authorization: 'Basic Zm9vOmJhcg==' }],
  ['an unknown key', () => `gw_test_${randomBytes(32).toString('base64url')}`],
  ['a revoked key', () => keys.revoked!],
  ['an expired key', () => keys.expired!],
];

describe.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', (_name, op) => {
  it.each(badKeys)('401 with %s', async (_label, key, headers) => {
    const res = await send(op, await pathFor(op, { tenantId: a.tenant.id, mode: 'test' }), key(), headers);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401, code: 'invalid_api_key', error: 'Unauthorized' });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it.skipIf(op.scope === null)('403 naming the scope for a key without it', async () => {
    const other = SCOPES.find((s) => s !== op.scope && s !== 'admin') as Scope;
    const { key } = await createTestKey(db, { tenantId: a.tenant.id, mode: 'test', scopes: [other] });
    const res = await send(op, await pathFor(op, { tenantId: a.tenant.id, mode: 'test' }), key);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect(res.body.message).toContain(op.scope);
  });

  it.skipIf(!op.params)("404 for another tenant's id", async () => {
    const res = await send(op, await pathFor(op, { tenantId: b.tenant.id, mode: 'test' }), a.test);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it.skipIf(!op.params)("404 for the other mode's id", async () => {
    const res = await send(op, await pathFor(op, { tenantId: a.tenant.id, mode: 'live' }), a.test);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it.skipIf(!op.params)('404 for a junk id', async () => {
    const res = await send(op, op.path.replace(/:\w+/g, 'nope'), a.test);
    expect(res.status).toBe(404);
  });
});

describe('suspended tenant', () => {
  it('gets 403 tenant_suspended with an otherwise valid key', async () => {
    const t = await createTestTenant();
    await db.update(tenants).set({ status: 'suspended' }).where(eq(tenants.id, t.tenant.id));
    const res = await call('GET', '/v1/tenants/me', { key: t.test });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('tenant_suspended');
  });
});
