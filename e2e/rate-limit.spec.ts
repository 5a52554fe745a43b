import { expect, test } from '@playwright/test';
import { closeDb } from '@/lib/db';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';
import { APP_PORTS } from '../playwright.config';

test.afterAll(async () => {
  await closeDb();
});

test('two app processes sharing a 5 rpm key together allow exactly 5 requests', async ({ request }) => {
  const t = await createTestTenant();
  const { key } = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 5 });
  const s = new Date().getUTCSeconds();
  if (s > 50) await new Promise((r) => setTimeout(r, (61 - s) * 1000));
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const port = APP_PORTS[i % 2];
    const res = await request.get(`http://127.0.0.1:${port}/v1/tenants/me`, { headers: { authorization: `Bearer ${key}` } });
    statuses.push(res.status());
    if (res.status() === 429) {
      expect(res.headers()['x-ratelimit-remaining']).toBe('0');
      expect(await res.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'rate_limited' });
    }
  }
  expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);

  // Concurrently from both processes: still exactly 5 for a fresh key.
  const fresh = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'test', scopes: ['admin'], rateLimitRpm: 5 });
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      request.get(`http://127.0.0.1:${APP_PORTS[i % 2]}/v1/tenants/me`, { headers: { authorization: `Bearer ${fresh.key}` } }),
    ),
  );
  expect(results.filter((r) => r.status() === 200)).toHaveLength(5);
});

test('revocation through one process applies at once on the other', async ({ request }) => {
  const t = await createTestTenant();
  const created = await request.post(`http://127.0.0.1:${APP_PORTS[0]}/v1/api-keys`, {
    headers: { authorization: `Bearer ${t.test}` },
    data: { name: 'cross', scopes: ['admin'] },
  });
  expect(created.status()).toBe(201);
  const { id, key } = await created.json();
  expect((await request.get(`http://127.0.0.1:${APP_PORTS[1]}/v1/tenants/me`, { headers: { authorization: `Bearer ${key}` } })).status()).toBe(200);
  await request.delete(`http://127.0.0.1:${APP_PORTS[0]}/v1/api-keys/${id}/revoke`, { headers: { authorization: `Bearer ${t.test}` } });
  expect((await request.get(`http://127.0.0.1:${APP_PORTS[1]}/v1/tenants/me`, { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);
});
