import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users, webhookEndpoints } from '@/db/schema';
import { generateTotpSecret } from '@/lib/auth/totp';
import { openSecret, sealedPrefix } from '@/lib/crypto/secret-box';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { createUser } from '@/lib/users/create-user';

const exec = promisify(execFile);

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'scripts/gateway.ts', ...args], { env: process.env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('operator CLI', () => {
  it('tenant:create prints the tenant and a working admin key per mode; key:create and tenant:list work', async () => {
    const created = await cli('tenant:create', '--name', 'CLI Shop', '--invoice-fee', '0.015', '--withdrawal-fee', '0.02');
    expect(created.code).toBe(0);
    const out = JSON.parse(created.stdout);
    expect(out.tenantId).toMatch(/^ten_/);
    expect(out.keys.live).toMatch(/^gw_live_/);
    expect(out.keys.test).toMatch(/^gw_test_/);
    const me = await call('GET', '/v1/tenants/me', { key: out.keys.test });
    expect(me.body).toMatchObject({ name: 'CLI Shop', invoiceFeePercent: '0.015', feePercent: '0.02', mode: 'test' });

    const key = await cli('key:create', '--tenant', out.tenantId, '--mode', 'live', '--scopes', 'invoices:read,invoices:write');
    expect(key.code).toBe(0);
    const k = JSON.parse(key.stdout);
    expect(k.key).toMatch(/^gw_live_/);
    expect(k.scopes).toEqual(['invoices:read', 'invoices:write']);

    const list = await cli('tenant:list');
    expect(JSON.parse(list.stdout).some((t: { id: string }) => t.id === out.tenantId)).toBe(true);

    const user = await cli('user:create', '--email', `owner-${Date.now()}@example.com`, '--role', 'owner', '--tenant', out.tenantId);
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout).password).toBeTruthy();
  });

  it('secrets:reencrypt seals secrets stored in clear, prints no secret, and a second run leaves them as they are', async () => {
    const t = await createTestTenant();
    const ep = await createTestWebhookEndpoint(t.db, { tenantId: t.tenant.id, mode: 'test' }, { legacyPlaintext: true });
    const user = await createUser(t.db, {
      email: `cli-totp-${Date.now()}@example.com`,
      password: 'a-long-enough-password',
      role: 'owner',
      tenantId: t.tenant.id,
    });
    const totp = generateTotpSecret();
    await t.db.update(users).set({ totpSecret: totp }).where(eq(users.id, user.id));
    const stored = async () => [
      (await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id)))[0]!.secret,
      (await t.db.select().from(users).where(eq(users.id, user.id)))[0]!.totpSecret!,
    ];

    const run = await cli('secrets:reencrypt', '--batch-size', '50');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.failures).toEqual([]);
    expect(report.columns['webhook_endpoints.secret'].sealed).toBeGreaterThanOrEqual(1);
    expect(report.columns['users.totp_secret'].sealed).toBeGreaterThanOrEqual(1);
    for (const out of [run.stdout, run.stderr]) {
      expect(out).not.toContain(ep.secret);
      expect(out).not.toContain(totp);
      expect(out).not.toContain('enc:v1:');
    }
    const sealed = await stored();
    expect(sealed.every((v) => v.startsWith(sealedPrefix()))).toBe(true);
    expect(sealed.map((v) => openSecret(v))).toEqual([ep.secret, totp]);

    const again = await cli('secrets:reencrypt');
    expect(again.code).toBe(0);
    expect(await stored()).toEqual(sealed);
  });

  it.each([
    [['tenant:create'], /--name is required/],
    [['tenant:create', '--name', 'X', '--invoice-fee', 'abc'], /invoice fee/],
    [['tenant:create', '--name', 'X', '--withdrawal-fee', '1.5'], /withdrawal fee/],
    [['tenant:create', '--name', 'X', '--colour', 'red'], /unknown flag/],
    [['key:create', '--tenant', 'ten_nope', '--mode', 'test', '--scopes', 'admin'], /not found/],
    [['bogus:cmd'], /unknown command/],
    [['secrets:reencrypt', '--batch-size', '0'], /--batch-size must be/],
    [['user:create', '--email', 'support@example.com', '--role', 'support', '--tenant', 'ten_x'], /support and compliance users have none/],
  ])('fails clearly for %j', async (args, message) => {
    const res = await cli(...(args as string[]));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(message);
  });
});
