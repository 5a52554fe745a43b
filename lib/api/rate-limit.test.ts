import { describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/app';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';

describe('per-key rate limit', () => {
  it('allows exactly rateLimitRpm requests, then 429 with headers and the spec body', async () => {
    const t = await createTestTenant();
    const { key } = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 5 });
    // Stay inside one window: the window is the calendar minute.
    const secondsIntoMinute = new Date().getUTCSeconds();
    if (secondsIntoMinute > 55) await new Promise((r) => setTimeout(r, (61 - secondsIntoMinute) * 1000));
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await call('GET', '/v1/tenants/me', { key });
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining')!);
      if (i === 6) {
        expect(res.status).toBe(429);
        expect(res.headers.get('x-ratelimit-limit')).toBe('5');
        expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
        const reset = Number(res.headers.get('x-ratelimit-reset'));
        const now = Date.now() / 1000;
        expect(reset).toBeGreaterThan(now);
        expect(reset).toBeLessThanOrEqual(now + 60);
        expect(reset % 60).toBe(0);
        const retryAfter = Number(res.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(res.body).toMatchObject({
          statusCode: 429,
          message: `Rate limit exceeded. Retry in ${retryAfter} seconds.`,
          error: 'Too Many Requests',
          code: 'rate_limited',
        });
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual(['4', '3', '2', '1', '0', '0', '0']);
  });

  it('is exact under concurrency: 30 parallel requests on a 10 rpm key give 10 successes', async () => {
    const t = await createTestTenant();
    const { key } = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 10 });
    const secondsIntoMinute = new Date().getUTCSeconds();
    if (secondsIntoMinute > 55) await new Promise((r) => setTimeout(r, (61 - secondsIntoMinute) * 1000));
    const results = await Promise.all(Array.from({ length: 30 }, () => call('GET', '/v1/tenants/me', { key })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(20);
  });

  it('limits keys independently', async () => {
    const t = await createTestTenant();
    const a = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 1 });
    const b = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 1 });
    const secondsIntoMinute = new Date().getUTCSeconds();
    if (secondsIntoMinute > 57) await new Promise((r) => setTimeout(r, (61 - secondsIntoMinute) * 1000));
    expect((await call('GET', '/v1/tenants/me', { key: a.key })).status).toBe(200);
    expect((await call('GET', '/v1/tenants/me', { key: a.key })).status).toBe(429);
    expect((await call('GET', '/v1/tenants/me', { key: b.key })).status).toBe(200);
  });
});
