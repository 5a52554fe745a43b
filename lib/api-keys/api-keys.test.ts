import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { hashKeySecret } from './secret';
import { LATEST_API_VERSION } from '@/lib/api/versions';

let t: Awaited<ReturnType<typeof createTestTenant>>;
beforeAll(async () => {
  t = await createTestTenant();
});

async function keyCount() {
  const [row] = await t.db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.tenantId, t.tenant.id));
  return Number(row!.n);
}

describe('POST /v1/api-keys', () => {
  it('returns the secret once and stores only its hash, prefix and last four', async () => {
    const res = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Server', scopes: ['invoices:read'] } });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^gw_test_[A-Za-z0-9_-]{43}$/);
    expect(res.body).toMatchObject({ name: 'Server', keyPrefix: 'gw_test_', mode: 'test', status: 'ACTIVE', rateLimitRpm: 120, expiresAt: null });
    expect(res.body.lastFour).toBe(res.body.key.slice(-4));
    expect(res.body.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, res.body.id));
    expect(row!.keyHash).toBe(hashKeySecret(res.body.key));
    expect(JSON.stringify(row)).not.toContain(res.body.key);
    const list = await call('GET', '/v1/api-keys', { key: t.test });
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(res.body.id);
  });

  it('the new key works at once with its scopes only', async () => {
    const created = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Reader', scopes: ['invoices:read'] } });
    expect((await call('GET', '/v1/tenants/me', { key: created.body.key })).status).toBe(200);
    const denied = await call('GET', '/v1/api-keys', { key: created.body.key });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain('admin');
  });

  it('defaults mode to the calling key and accepts its own mode named explicitly', async () => {
    const own = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Own', scopes: ['admin'], mode: 'test' } });
    expect(own.status).toBe(201);
    expect(own.body.key.startsWith('gw_test_')).toBe(true);
    const fromLive = await call('POST', '/v1/api-keys', { key: t.live, body: { name: 'Live child', scopes: ['invoices:read'] } });
    expect(fromLive.status).toBe(201);
    expect(fromLive.body.mode).toBe('live');
    // The test key lists only test keys.
    const list = await call('GET', '/v1/api-keys', { key: t.test });
    expect(list.body.data.every((k: { mode: string }) => k.mode === 'test')).toBe(true);
  });

  // Issue 14: a test key (shared with CI, contractors) minted a working live admin key.
  it.each([
    ['test', 'live'],
    ['live', 'test'],
  ] as const)('a %s key cannot create a %s key: 403 mode_mismatch, nothing written', async (own, other) => {
    const before = await keyCount();
    const res = await call('POST', '/v1/api-keys', { key: t[own], body: { name: 'Escalate', scopes: ['admin'], mode: other } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, code: 'mode_mismatch', error: 'Forbidden' });
    expect(res.body.message).toContain(other);
    expect(res.body.key).toBeUndefined();
    expect(await keyCount()).toBe(before);
  });

  it("a key cannot edit or revoke a key of the other mode (404, as for another tenant's)", async () => {
    const live = await call('POST', '/v1/api-keys', { key: t.live, body: { name: 'Live target', scopes: ['admin'] } });
    const patch = await call('PATCH', `/v1/api-keys/${live.body.id}`, { key: t.test, body: { scopes: ['invoices:read'] } });
    expect(patch.status).toBe(404);
    const revoke = await call('DELETE', `/v1/api-keys/${live.body.id}/revoke`, { key: t.test });
    expect(revoke.status).toBe(404);
    expect((await call('GET', '/v1/tenants/me', { key: live.body.key })).status).toBe(200);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, live.body.id));
    expect(row!.scopes).toEqual(['admin']);
  });

  it('sets an expiry when asked', async () => {
    const res = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Temp', scopes: ['admin'], expiresInDays: 7 } });
    const days = (Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
  });

  const bad: [string, unknown, string][] = [
    ['missing name', { scopes: ['admin'] }, 'name'],
    ['empty scopes', { name: 'x', scopes: [] }, 'scopes'],
    ['unknown scope', { name: 'x', scopes: ['invoices:delete'] }, 'scopes.0'],
    ['scopes not an array', { name: 'x', scopes: 'admin' }, 'scopes'],
    ['name a number', { name: 5, scopes: ['admin'] }, 'name'],
    ['rateLimitRpm 0', { name: 'x', scopes: ['admin'], rateLimitRpm: 0 }, 'rateLimitRpm'],
    ['rateLimitRpm 10001', { name: 'x', scopes: ['admin'], rateLimitRpm: 10_001 }, 'rateLimitRpm'],
    ['rateLimitRpm "abc"', { name: 'x', scopes: ['admin'], rateLimitRpm: 'abc' }, 'rateLimitRpm'],
    ['rateLimitRpm 1.5', { name: 'x', scopes: ['admin'], rateLimitRpm: 1.5 }, 'rateLimitRpm'],
    ['expiresInDays negative', { name: 'x', scopes: ['admin'], expiresInDays: -1 }, 'expiresInDays'],
    ['unknown field', { name: 'x', scopes: ['admin'], owner: 'me' }, ''],
    ['bad mode', { name: 'x', scopes: ['admin'], mode: 'prod' }, 'mode'],
  ];
  it.each(bad)('400 with details for %s, nothing written', async (_label, body, path) => {
    const before = await keyCount();
    const res = await call('POST', '/v1/api-keys', { key: t.test, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'validation_failed', error: 'Bad Request' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(res.body.requestId).toMatch(/^req_/);
    expect(await keyCount()).toBe(before);
  });

  it('400 invalid_json for malformed JSON, 415 for another content type, 413 over 1 MB', async () => {
    const before = await keyCount();
    const badJson = await call('POST', '/v1/api-keys', { key: t.test, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(badJson.status).toBe(400);
    expect(badJson.body.code).toBe('invalid_json');
    const form = await call('POST', '/v1/api-keys', {
      key: t.test,
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.body.code).toBe('unsupported_media_type');
    const huge = await call('POST', '/v1/api-keys', {
      key: t.test,
      rawBody: JSON.stringify({ name: 'x'.repeat(1_100_000), scopes: ['admin'] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('payload_too_large');
    expect(await keyCount()).toBe(before);
  });
});

describe('PATCH /v1/api-keys/:id and revoke', () => {
  it('changes name, scopes and rate limit', async () => {
    const created = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'A', scopes: ['invoices:read'] } });
    const res = await call('PATCH', `/v1/api-keys/${created.body.id}`, {
      key: t.test,
      body: { name: 'B', scopes: ['invoices:read', 'withdrawals:read'], rateLimitRpm: 500 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'B', scopes: ['invoices:read', 'withdrawals:read'], rateLimitRpm: 500 });
    expect(res.body.key).toBeUndefined();
    const me = await call('GET', '/v1/tenants/me', { key: created.body.key });
    expect(me.headers.get('x-ratelimit-limit')).toBe('500');
  });

  it('refuses an empty change and bad values', async () => {
    const created = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'A', scopes: ['invoices:read'] } });
    for (const body of [{}, { scopes: [] }, { rateLimitRpm: 0 }, { name: '' }]) {
      const res = await call('PATCH', `/v1/api-keys/${created.body.id}`, { key: t.test, body });
      expect(res.status).toBe(400);
      expect(res.body.details.length).toBeGreaterThan(0);
    }
  });

  it('revocation applies to the very next request', async () => {
    const created = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Doomed', scopes: ['admin'] } });
    expect((await call('GET', '/v1/tenants/me', { key: created.body.key })).status).toBe(200);
    const revoked = await call('DELETE', `/v1/api-keys/${created.body.id}/revoke`, { key: t.test });
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('REVOKED');
    expect(revoked.body.revokedAt).not.toBeNull();
    const after = await call('GET', '/v1/tenants/me', { key: created.body.key });
    expect(after.status).toBe(401);
    // Idempotent, and a revoked key cannot be edited.
    expect((await call('DELETE', `/v1/api-keys/${created.body.id}/revoke`, { key: t.test })).status).toBe(200);
    const patch = await call('PATCH', `/v1/api-keys/${created.body.id}`, { key: t.test, body: { name: 'x' } });
    expect(patch.status).toBe(409);
    expect(patch.body.code).toBe('invalid_state');
  });

  it('records last-used time', async () => {
    const created = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Used', scopes: ['admin'] } });
    expect(created.body.lastUsedAt).toBeNull();
    await call('GET', '/v1/tenants/me', { key: created.body.key });
    const list = await call('GET', '/v1/api-keys', { key: t.test });
    const row = list.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(Date.now() - Date.parse(row.lastUsedAt)).toBeLessThan(60_000);
  });

  it('shows an expired key as EXPIRED', async () => {
    const created = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Old', scopes: ['admin'], expiresInDays: 1 } });
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, created.body.id));
    const list = await call('GET', '/v1/api-keys', { key: t.test });
    expect(list.body.data.find((k: { id: string }) => k.id === created.body.id).status).toBe('EXPIRED');
    expect((await call('GET', '/v1/tenants/me', { key: created.body.key })).status).toBe(401);
  });
});

describe('GET /v1/tenants/me', () => {
  it('returns the tenant with the fee rates as fractions and the mode of the key', async () => {
    const other = await createTestTenant({ invoiceFeeRate: '0.015', withdrawalFeeRate: '0.02' });
    const res = await call('GET', '/v1/tenants/me', { key: other.live });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: other.tenant.id,
      name: other.tenant.name,
      mode: 'live',
      invoiceFeePercent: '0.015',
      feePercent: '0.02',
      underpaymentTolerancePercent: '0',
      autoRefundOverpayments: false,
      autoRefundEnabledAt: null,
      autoRefundDelaySeconds: 3600,
      autoRefundMaxMultiple: '10',
      autoRefundMaxAmount: '1000.00',
      refundNetworkFeePayer: 'payer',
      wrongNetworkPolicy: 'credit',
      rails: ['BSC:USDT'],
      status: 'active',
      // A new tenant starts on the latest API version, and every response names the version it used.
      apiVersion: LATEST_API_VERSION,
      createdAt: other.tenant.createdAt.toISOString(),
    });
    expect(res.headers.get('Gateway-Version')).toBe(LATEST_API_VERSION);
  });
});
