import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { listAudit } from './list-audit';
import { recordAudit } from './record-audit';

const actor = { kind: 'support' as const, id: 'usr_test', label: 'support@example.com' };

/** The database's own refusal (drizzle wraps it in a "Failed query" error). */
async function refusal(p: PromiseLike<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return `${e.message} ${e.cause?.message ?? ''}`;
  }
  return 'not refused';
}

describe('audit log', () => {
  it('is append-only in the database: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const t = await createTestTenant();
    const row = await recordAudit(t.db, actor, {
      action: 'test.done',
      target: { type: 'tenant', id: t.tenant.id },
      tenantId: t.tenant.id,
      after: { x: 1 },
    });
    expect(await refusal(t.db.update(auditLog).set({ action: 'test.rewritten' }).where(eq(auditLog.id, row.id)))).toMatch(
      /append-only: UPDATE refused/,
    );
    expect(await refusal(t.db.delete(auditLog).where(eq(auditLog.id, row.id)))).toMatch(/append-only: DELETE refused/);
    expect(await refusal(t.db.execute(sql`truncate audit_log`))).toMatch(/append-only: TRUNCATE refused/);
    const [still] = await t.db.select().from(auditLog).where(eq(auditLog.id, row.id));
    expect(still).toMatchObject({ action: 'test.done', after: { x: 1 } });
  });

  it("records a merchant's API key create and revoke and endpoint secret rotation through /v1, with the key as actor and no secret", async () => {
    const t = await createTestTenant();
    const created = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'Audited', scopes: ['invoices:read'] } });
    expect(created.status).toBe(201);
    const revoked = await call('DELETE', `/v1/api-keys/${created.body.id}/revoke`, { key: t.test });
    expect(revoked.status).toBe(200);
    // Revoking again changes nothing, so it records nothing (one api_key.revoked row below).
    expect((await call('DELETE', `/v1/api-keys/${created.body.id}/revoke`, { key: t.test })).status).toBe(200);
    const ep = await call('POST', '/v1/webhooks/endpoints', { key: t.test, body: { url: 'https://example.com/hook', eventsSubscribed: ['*'] } });
    expect(ep.status).toBe(201);
    const rotated = await call('POST', `/v1/webhooks/endpoints/${ep.body.id}/rotate-secret`, { key: t.test, body: { graceHours: 1 } });
    expect(rotated.status).toBe(200);

    const { rows } = await listAudit(t.db, { tenantId: t.tenant.id });
    expect(rows).toHaveLength(3);
    const byAction = Object.fromEntries(rows.map((r) => [r.action, r]));
    expect(Object.keys(byAction).sort()).toEqual(['api_key.created', 'api_key.revoked', 'webhook_endpoint.secret_rotated']);
    for (const r of rows) {
      expect(r.actorKind).toBe('api_key');
      expect(r.actorId).toMatch(/^key_/);
      expect(r.mode).toBe('test');
      // Neither the new key nor the signing secret is ever written to the log.
      const text = JSON.stringify(r);
      expect(text).not.toContain(created.body.key);
      expect(text).not.toContain(rotated.body.secret);
      expect(text).not.toMatch(/whsec_|gw_test_/);
    }
    expect(byAction['api_key.created']!.targetId).toBe(created.body.id);
    expect(byAction['api_key.created']!.after).toMatchObject({ name: 'Audited', scopes: ['invoices:read'] });
    expect(byAction['webhook_endpoint.secret_rotated']!.after).toMatchObject({ previousSecretValidHours: 1 });

    // Another tenant sees none of it.
    const other = await createTestTenant();
    expect((await listAudit(other.db, { tenantId: other.tenant.id })).rows).toEqual([]);
  });

  it('pages newest first with a cursor', async () => {
    const t = await createTestTenant();
    const t0 = Date.now();
    for (let i = 0; i < 5; i++)
      await recordAudit(
        t.db,
        actor,
        { action: `test.n${i}`, target: { type: 'tenant', id: t.tenant.id }, tenantId: t.tenant.id },
        new Date(t0 + i * 1000),
      );
    const p1 = await listAudit(t.db, { tenantId: t.tenant.id, limit: 3 });
    expect(p1.rows.map((r) => r.action)).toEqual(['test.n4', 'test.n3', 'test.n2']);
    const p2 = await listAudit(t.db, { tenantId: t.tenant.id, limit: 3, before: p1.nextBefore! });
    expect(p2.rows.map((r) => r.action)).toEqual(['test.n1', 'test.n0']);
    expect(p2.nextBefore).toBeNull();
  });
});
