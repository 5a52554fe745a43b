import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { createTestKey, createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';

/*
 * The underpayment tolerance and the wrong-network policy through the API (PATCH /v1/tenants/me,
 * `admin` scope, a live key: the settings apply to both modes), audited like the dashboard's change.
 * The auto-refund policy stays in the dashboard (it needs the owner's step-up).
 */
withTestChain(() => undefined);

const patch = (key: string, body: unknown) => call('PATCH', '/v1/tenants/me', { key, body });

describe('PATCH /v1/tenants/me', () => {
  it('an admin live key sets the tolerance and the wrong-network policy; new invoices use the tolerance; each change is audited', async () => {
    const t = await createTestTenant();
    const res = await patch(t.live, { underpaymentTolerancePercent: '0.50', wrongNetworkPolicy: 'hold' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: t.tenant.id, mode: 'live', underpaymentTolerancePercent: '0.5', wrongNetworkPolicy: 'hold' });
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).body).toMatchObject({
      underpaymentTolerancePercent: '0.5',
      wrongNetworkPolicy: 'hold',
    });
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00' } });
    expect(inv.body.underpaymentTolerancePercent).toBe('0.5');
    // One field alone leaves the other as it is.
    const one = await patch(t.live, { wrongNetworkPolicy: 'credit' });
    expect(one.body).toMatchObject({ underpaymentTolerancePercent: '0.5', wrongNetworkPolicy: 'credit' });
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, t.tenant.id), eq(auditLog.actorKind, 'api_key')));
    expect(audit.map((a) => a.action).sort()).toEqual([
      'tenant.underpayment_tolerance_changed',
      'tenant.wrong_network_policy_changed',
      'tenant.wrong_network_policy_changed',
    ]);
  });

  it('bad input is a 400 naming the field; auto-refund, a test key or a key without admin cannot; nothing changes', async () => {
    const t = await createTestTenant();
    for (const [body, field] of [
      [{ underpaymentTolerancePercent: '6' }, 'underpaymentTolerancePercent'],
      [{ underpaymentTolerancePercent: '-1' }, 'underpaymentTolerancePercent'],
      [{ underpaymentTolerancePercent: 0.5 }, 'underpaymentTolerancePercent'],
      [{ wrongNetworkPolicy: 'refund' }, 'wrongNetworkPolicy'],
      [{}, ''],
      [{ autoRefundOverpayments: true }, ''],
    ] as const) {
      const res = await patch(t.live, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(field);
    }
    const test = await patch(t.test, { underpaymentTolerancePercent: '1' });
    expect(test.status).toBe(403);
    expect(test.body.code).toBe('mode_mismatch');
    const { key } = await createTestKey(t.db, { tenantId: t.tenant.id, mode: 'live', scopes: ['invoices:write'] });
    const scoped = await patch(key, { underpaymentTolerancePercent: '1' });
    expect(scoped.status).toBe(403);
    expect(scoped.body.code).toBe('insufficient_scope');
    expect((await call('GET', '/v1/tenants/me', { key: t.live })).body).toMatchObject({
      underpaymentTolerancePercent: '0',
      wrongNetworkPolicy: 'credit',
      autoRefundOverpayments: false,
    });
  });
});
