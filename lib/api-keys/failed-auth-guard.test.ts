import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';
import { BLOCK_MS, FAILURE_LIMIT, FailedAuthGuard, WINDOW_MS } from './failed-auth-guard';
import { generateKeySecret } from './secret';

const bad = () => `Bearer ${generateKeySecret('test')}`;

describe('failed-auth guard', () => {
  it('blocks an address after FAILURE_LIMIT failures in a window, for BLOCK_MS, with Retry-After', async () => {
    let now = 1_000_000;
    const guard = new FailedAuthGuard(() => now);
    for (let i = 0; i < FAILURE_LIMIT - 1; i++) guard.failed('203.0.113.7');
    await expect(guard.check('203.0.113.7', bad(), 0)).resolves.toBeUndefined();
    guard.failed('203.0.113.7');
    const err = await guard.check('203.0.113.7', bad(), 0).catch((e) => e as { code: string; status: number; headers: Record<string, string> });
    expect(err?.code).toBe('too_many_failed_auth');
    expect(err?.status).toBe(429);
    expect(err?.headers['Retry-After']).toBe(String(BLOCK_MS / 1000));
    expect(guard.blocks('198.51.100.1', bad())).toBe(false); // other addresses unaffected
    now += BLOCK_MS;
    expect(guard.blocks('203.0.113.7', bad())).toBe(false);
  });

  it('holds a blocked request for the tarpit delay before answering 429', async () => {
    const guard = new FailedAuthGuard();
    for (let i = 0; i < FAILURE_LIMIT; i++) guard.failed('203.0.113.8');
    const started = performance.now();
    await expect(guard.check('203.0.113.8', bad(), 200)).rejects.toMatchObject({ code: 'too_many_failed_auth' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    // Not blocked: answered before the event loop even turns (no timer), whatever the delay would have been.
    const answered = guard.check('198.51.100.2', bad(), 60_000).then(() => 'answered');
    const turned = new Promise((resolve) => setImmediate(() => resolve('event loop turned first')));
    expect(await Promise.race([answered, turned])).toBe('answered');
  });

  it('counts failures per window, so a slow trickle of typos is never blocked', () => {
    let now = 0;
    const guard = new FailedAuthGuard(() => now);
    for (let i = 0; i < FAILURE_LIMIT * 5; i++) {
      guard.failed('203.0.113.7');
      now += (WINDOW_MS / FAILURE_LIMIT) * 2;
    }
    expect(guard.blocks('203.0.113.7', bad())).toBe(false);
  });

  it('lets a key that authenticated recently through from a blocked address', () => {
    const guard = new FailedAuthGuard();
    const good = bad();
    guard.succeeded(good);
    for (let i = 0; i < FAILURE_LIMIT; i++) guard.failed('203.0.113.7');
    expect(guard.blocks('203.0.113.7', good)).toBe(false);
    expect(guard.blocks('203.0.113.7', bad())).toBe(true);
    expect(guard.blocks('203.0.113.7', null)).toBe(true);
  });
});

describe('failed-auth guard in the API', () => {
  it('answers 429 without looking keys up once an address has sent too many bad keys; good keys keep working', async () => {
    const t = await createTestTenant();
    const address = `203.0.113.${Math.floor(Math.random() * 250)}`;
    const headers = { 'x-forwarded-for': `6.6.6.6, ${address}` }; // the balancer appends the real peer
    expect((await call('GET', '/v1/tenants/me', { key: t.test, headers })).status).toBe(200);
    for (let i = 0; i < FAILURE_LIMIT; i++) {
      const res = await call('GET', '/v1/tenants/me', { key: generateKeySecret('test'), headers });
      expect(res.status).toBe(401);
    }
    const blocked = await call('GET', '/v1/tenants/me', { key: generateKeySecret('test'), headers });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ code: 'too_many_failed_auth', statusCode: 429, error: 'Too Many Requests' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // A forged entry in front of the balancer's does not escape the block.
    const forged = await call('GET', '/v1/tenants/me', { key: generateKeySecret('test'), headers: { 'x-forwarded-for': `1.2.3.4, ${address}` } });
    expect(forged.status).toBe(429);
    // The tenant's working key, used from that address before, still works; other addresses are unaffected.
    expect((await call('GET', '/v1/tenants/me', { key: t.test, headers })).status).toBe(200);
    expect((await call('GET', '/v1/tenants/me', { key: generateKeySecret('test') })).status).toBe(401);
    // Revocation still applies to a recently good key: the guard only lets it reach the lookup.
    const other = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'] });
    expect((await call('GET', '/v1/tenants/me', { key: other.key, headers: { 'x-forwarded-for': '192.0.2.1' } })).status).toBe(200);
    await t.db.update(apiKeys).set({ status: 'REVOKED', revokedAt: new Date() }).where(eq(apiKeys.id, other.id));
    const revoked = await call('GET', '/v1/tenants/me', { key: other.key, headers });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('invalid_api_key');
  });
});
