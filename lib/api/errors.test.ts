import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/lib/env';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { productionEnv } from '@/lib/testing/production-env';
import { errorResponse } from './response';

describe('error shape', () => {
  it('unknown /v1 paths are JSON 404s for every method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await call(method, '/v1/does/not/exist');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, code: 'not_found', error: 'Not Found' });
      expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('wrong method is a JSON 405 with Allow', async () => {
    const res = await call('PUT', '/v1/tenants/me');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PATCH');
    expect(res.body.code).toBe('method_not_allowed');
  });

  it('a 500 shows neither stack nor internals', async () => {
    const res = errorResponse(
      Object.assign(new Error('relation "secret_table" does not exist at /app/x.ts:1:1'), { stack: undefined }),
      'req_test',
      new Headers(),
    );
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('secret_table');
    expect(text).not.toContain('.ts');
    expect(JSON.parse(text)).toMatchObject({ statusCode: 500, code: 'internal_error', requestId: 'req_test' });
  });
});

describe('HTTPS in production', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });
  const production = (trustProxy: string) => {
    Object.assign(process.env, productionEnv(), { TRUST_PROXY: trustProxy });
    delete process.env.TEST_RPC_URL;
    resetEnvCache();
  };

  it('refuses plain HTTP with 403 https_required and sends HSTS', async () => {
    const t = await createTestTenant();
    production('true');
    const plain = await call('GET', '/v1/tenants/me', { key: t.test });
    expect(plain.status).toBe(403);
    expect(plain.body.code).toBe('https_required');
    expect(plain.headers.get('strict-transport-security')).toContain('max-age=');
    const proxied = await call('GET', '/v1/tenants/me', { key: t.test, headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get('strict-transport-security')).toContain('max-age=');
  });

  it('ignores X-Forwarded-Proto unless the proxy is trusted', async () => {
    const t = await createTestTenant();
    production('false');
    const res = await call('GET', '/v1/tenants/me', { key: t.test, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(403);
  });
});
