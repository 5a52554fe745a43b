import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { inviteMember } from '@/lib/auth/invitations';
import { totpCode } from '@/lib/auth/totp';
import { confirmTotpEnrollment, regenerateRecoveryCodes, startTotpEnrollment } from '@/lib/auth/two-factor';
import { resetEnvCache } from '@/lib/env';
import { tapLog } from '@/lib/log';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { findSecretsInDatabase, ISSUED_SECRET_PATTERNS } from '@/lib/testing/secret-scan';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createUser } from '@/lib/users/create-user';

// The receiver listens on loopback: allow it, as the development setting does.
process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '127.0.0.1';
resetEnvCache();

let r: Awaited<ReturnType<typeof startReceiver>>;
// Every log line written while the secrets are issued and used (request lines, job lines, errors), whatever LOG_LEVEL says.
const logLines: string[] = [];
let untap: () => void;
beforeAll(async () => {
  untap = tapLog((line) => logLines.push(line));
  r = await startReceiver();
});
afterAll(() => {
  untap();
  return r.close();
});

let idem = 0;
/** Every secret-issuing request goes with an Idempotency-Key: the stored response is what leaked before. */
const post = (path: string, key: string, body?: unknown) =>
  call('POST', path, { key, body, headers: { 'idempotency-key': `at-rest-${process.pid}-${++idem}` } });

describe('no issued secret is stored in clear', () => {
  it('after every secret-issuing path, no text, varchar, jsonb or array column of any table holds one', async () => {
    const t = await createTestTenant();
    const issued: Record<string, string> = {};

    // API keys: through the API (both modes) and as the dashboard and CLI issue them.
    const testKey = await post('/v1/api-keys', t.test, { name: 'At rest', scopes: ['admin'] });
    const liveKey = await post('/v1/api-keys', t.live, { name: 'At rest live', scopes: ['invoices:read'] });
    issued.apiKeyTest = testKey.body.key;
    issued.apiKeyLive = liveKey.body.key;
    issued.apiKeyDashboard = (await createApiKey(t.db, { tenantId: t.tenant.id, mode: 'live', name: 'Dashboard', scopes: ['admin'] })).key;

    // Webhook endpoint: created, then rotated with a grace period (both secrets stay usable).
    const endpoint = await post('/v1/webhooks/endpoints', t.test, { url: r.url, eventsSubscribed: ['*'] });
    expect(endpoint.status).toBe(201);
    issued.webhookCreated = endpoint.body.secret;
    const rotated = await post(`/v1/webhooks/endpoints/${endpoint.body.id}/rotate-secret`, t.test, { graceHours: 24 });
    issued.webhookRotated = rotated.body.secret;

    // Postback secret: revealed, then rotated with a grace period.
    issued.postbackRevealed = (await post('/v1/webhooks/postback-secret/reveal', t.test)).body.secret;
    issued.postbackRotated = (await post('/v1/webhooks/postback-secret/rotate', t.test, { graceHours: 24 })).body.secret;

    // Dashboard: the owner's password, TOTP secret, recovery codes and an invitation link token.
    const password = `pw-${crypto.randomUUID()}`;
    const owner = await createUser(t.db, { email: `owner-${crypto.randomUUID()}@example.com`, password, role: 'owner', tenantId: t.tenant.id });
    issued.password = password;
    const { secret: totp } = await startTotpEnrollment(t.db, owner.id);
    issued.totpPending = totp;
    const { recoveryCodes } = await confirmTotpEnrollment(t.db, owner.id, { code: totpCode(totp) });
    recoveryCodes.forEach((c, i) => (issued[`recovery${i}`] = c));
    // A code is accepted once per step: the next step's code (accepted for clock drift) stands for a later visit.
    const again = await regenerateRecoveryCodes(t.db, owner.id, { code: totpCode(totp, Date.now() + 30_000) });
    again.recoveryCodes.forEach((c, i) => (issued[`recoveryRegenerated${i}`] = c));
    issued.invitation = (
      await inviteMember(t.db, { tenantId: t.tenant.id, userId: owner.id }, { email: `member-${crypto.randomUUID()}@example.com` })
    ).token;

    for (const [name, value] of Object.entries(issued)) expect(value, name).toMatch(/.{8,}/);
    expect(await findSecretsInDatabase(t.db, { strings: Object.values(issued) })).toEqual([]);
    // Nor in the logs: one JSON line per request (lib/metrics/observe-request.ts) was written for each call above.
    await call('GET', '/v1/tenants/me', { key: issued.apiKeyTest });
    const requestLines = logLines.map((l) => JSON.parse(l) as { msg: string; requestId?: string }).filter((l) => l.msg === 'request');
    expect(requestLines.length).toBeGreaterThanOrEqual(7);
    expect(requestLines.every((l) => /^req_/.test(l.requestId ?? ''))).toBe(true);
    expect(logLines.filter((l) => Object.values(issued).some((v) => l.includes(v)))).toEqual([]);
    expect(logLines.filter((l) => ISSUED_SECRET_PATTERNS.some((p) => new RegExp(p).test(l)))).toEqual([]);
    // The full-run check (lib/testing/global-setup.ts) looks for these shapes; make sure it would see them.
    for (const name of ['apiKeyTest', 'apiKeyLive', 'webhookCreated', 'postbackRevealed']) {
      expect(
        ISSUED_SECRET_PATTERNS.some((p) => new RegExp(`^${p}$`).test(issued[name]!)),
        name,
      ).toBe(true);
    }
  });

  it('the scan finds a secret wherever it is stored in clear (it can fail)', async () => {
    const t = await createTestTenant();
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64url')}`;
    await t.db
      .transaction(async (tx) => {
        await tx.execute(
          // A jsonb column (event payloads), in a transaction rolled back below: no other file ever sees it.
          sql`insert into events (id, tenant_id, mode, type, subject_id, data) values (${`evt_scan_${process.pid}`}, ${t.tenant.id}, 'test', 'scan.test', 'x', ${JSON.stringify({ leaked: secret })}::jsonb)`,
        );
        expect(await findSecretsInDatabase(tx, { strings: [secret] })).toEqual([{ table: 'events', column: 'data', rows: 1 }]);
        expect((await findSecretsInDatabase(tx, { patterns: ISSUED_SECRET_PATTERNS })).map((h) => `${h.table}.${h.column}`)).toContain('events.data');
        tx.rollback();
      })
      .catch((err: Error) => {
        if (!/rollback/i.test(err.message)) throw err;
      });
  });
});
