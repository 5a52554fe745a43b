import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users, webhookEndpoints, webhookPostbackSecrets } from '@/db/schema';
import { generateTotpSecret, totpCode } from '@/lib/auth/totp';
import { verifyCredentials } from '@/lib/auth/verify-credentials';
import { rowsOf, type Db } from '@/lib/db';
import { resetEnvCache } from '@/lib/env';
import { emitEvent } from '@/lib/events/emit-event';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { createUser } from '@/lib/users/create-user';
import { parseAllowList } from '@/lib/webhooks/blocked-address';
import { deliverDue } from '@/lib/webhooks/deliver-due';
import { revealPostbackSecret } from '@/lib/webhooks/reveal-postback-secret';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';
import { verifyWebhook } from '@/lib/webhooks/verify-webhook';
import { reencryptSecrets } from './reencrypt-secrets';
import { openSecret, sealedPrefix, sealSecret } from './secret-box';
import { secretsKeyring } from './secrets-keyring';

const allow = parseAllowList('127.0.0.1');
const PASSWORD = 'a-long-enough-password';
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => void (receiver = await startReceiver()));
afterAll(() => receiver.close());

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

class Rollback extends Error {}
/**
 * Runs the scenario in a transaction that is rolled back: other test files
 * (the CLI test re-encrypts the whole database) never see these plaintext rows
 * or rows under a key of this file only.
 */
async function rolledBack(db: Db, fn: (tx: Db) => Promise<void>) {
  await db
    .transaction(async (tx) => {
      await fn(tx as unknown as Db);
      throw new Rollback();
    })
    .catch((err) => {
      if (!(err instanceof Rollback)) throw err;
    });
}

/** Emits an event, delivers it and returns a checker of the signature the receiver got. */
async function deliverOne(tx: Db, owner: { tenantId: string; mode: 'test' }, postBackUrl?: string) {
  const ev = await emitEvent(tx, { ...owner, type: postBackUrl ? 'withdrawal.created' : 'invoice.created', subjectId: 'x_1', data: {}, postBackUrl });
  const results = await deliverDue(tx, { tenantId: owner.tenantId, allow });
  expect(results.map((r) => r.status)).toEqual(results.map(() => 'SUCCEEDED'));
  const got = receiver.received.filter((x) => x.headers['x-webhook-id'] === ev.id);
  expect(got.length).toBeGreaterThan(0);
  return (secret: string) => got.some((g) => verifyWebhook({ secret, headers: g.headers as Record<string, string>, rawBody: g.rawBody }).ok);
}

/**
 * Signs in with the password and a TOTP code from the stored secret. A code is accepted once per
 * 30 s step, and these tests sign in several times within one step: each sign-in stands for a later
 * step, so the last accepted step is cleared first (what is tested here is that the sealed secret opens).
 */
async function signsInWithTotp(tx: Db, email: string, totp: string, ip: string) {
  await tx.update(users).set({ totpLastStep: null }).where(eq(users.email, email));
  return (await verifyCredentials(tx, { email, password: PASSWORD, code: totpCode(totp) }, { ip })).ok;
}

async function endpointRow(tx: Db, id: string) {
  return (await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;
}

describe('re-encryption of secrets', () => {
  it('seals rows written in clear (which keep working before and after), in batches, and a second run changes nothing', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    await rolledBack(t.db, async (tx) => {
      // Rows as they were before encryption at rest: three endpoints, one with a previous secret in grace, a postback secret, TOTP secrets.
      const legacy = [];
      for (let i = 0; i < 3; i++)
        legacy.push(await createTestWebhookEndpoint(tx, owner, { url: receiver.url, legacyPlaintext: true, eventsSubscribed: ['invoice.created'] }));
      const oldSecret = 'whsec_' + randomBytes(32).toString('base64url');
      await tx
        .update(webhookEndpoints)
        .set({ previousSecret: oldSecret, previousSecretExpiresAt: new Date(Date.now() + 3_600_000) })
        .where(eq(webhookEndpoints.id, legacy[0]!.id));
      const sealedEp = await createTestWebhookEndpoint(tx, owner, { url: receiver.url, eventsSubscribed: ['order.paid'] });
      const deleted = await createTestWebhookEndpoint(tx, owner, { eventsSubscribed: ['order.paid'] });
      await tx.update(webhookEndpoints).set({ secret: '', deletedAt: new Date(), enabled: false }).where(eq(webhookEndpoints.id, deleted.id));
      const postback = 'whsec_' + randomBytes(32).toString('base64url');
      const postbackOld = 'whsec_' + randomBytes(32).toString('base64url');
      await tx
        .insert(webhookPostbackSecrets)
        .values({ ...owner, secret: postback, previousSecret: postbackOld, previousSecretExpiresAt: new Date(Date.now() + 3_600_000) });
      const email = `reencrypt-${process.pid}-${Date.now()}@example.com`;
      const user = await createUser(tx, { email, password: PASSWORD, role: 'owner', tenantId: t.tenant.id });
      const totp = generateTotpSecret();
      await tx.update(users).set({ totpSecret: totp, totpPendingSecret: generateTotpSecret() }).where(eq(users.id, user.id));

      // Legacy rows work as they are.
      let check = await deliverOne(tx, owner);
      for (const ep of legacy) expect(check(ep.secret)).toBe(true);
      expect(check(oldSecret)).toBe(true);
      check = await deliverOne(tx, owner, receiver.url);
      expect(check(postback) && check(postbackOld)).toBe(true);
      expect(await signsInWithTotp(tx, email, totp, '198.51.100.7')).toBe(true);

      const sealedBefore = (await endpointRow(tx, sealedEp.id)).secret;
      const report = await reencryptSecrets(tx, { tenantId: t.tenant.id, batchSize: 2 });
      expect(report.failures).toEqual([]);
      expect(report.keyId).toBe(secretsKeyring().current.id);
      const sealedCounts = Object.fromEntries(Object.entries(report.columns).map(([c, n]) => [c, n.sealed]));
      expect(sealedCounts).toEqual({
        'webhook_endpoints.secret': 3,
        'webhook_endpoints.previous_secret': 1,
        'webhook_postback_secrets.secret': 1,
        'webhook_postback_secrets.previous_secret': 1,
        'users.totp_secret': 1,
        'users.totp_pending_secret': 1,
      });

      // Every value is now sealed with the current key and opens to what it was; the sealed and the emptied rows are untouched.
      const prefix = sealedPrefix();
      for (const ep of legacy) {
        const row = await endpointRow(tx, ep.id);
        expect(row.secret.startsWith(prefix)).toBe(true);
        expect(openSecret(row.secret)).toBe(ep.secret);
      }
      expect(openSecret((await endpointRow(tx, legacy[0]!.id)).previousSecret!)).toBe(oldSecret);
      expect((await endpointRow(tx, sealedEp.id)).secret).toBe(sealedBefore);
      expect((await endpointRow(tx, deleted.id)).secret).toBe('');
      const [pb] = await tx.select().from(webhookPostbackSecrets).where(eq(webhookPostbackSecrets.tenantId, t.tenant.id));
      expect([pb!.secret, pb!.previousSecret].every((v) => v!.startsWith(prefix))).toBe(true);
      expect([openSecret(pb!.secret), openSecret(pb!.previousSecret!)]).toEqual([postback, postbackOld]);
      const [u] = await tx.select().from(users).where(eq(users.id, user.id));
      expect(u!.totpSecret!.startsWith(prefix) && u!.totpPendingSecret!.startsWith(prefix)).toBe(true);
      expect(openSecret(u!.totpSecret!)).toBe(totp);

      // And everything still works with the sealed values.
      check = await deliverOne(tx, owner);
      for (const ep of legacy) expect(check(ep.secret)).toBe(true);
      check = await deliverOne(tx, owner, receiver.url);
      expect(check(postback)).toBe(true);
      expect(await signsInWithTotp(tx, email, totp, '198.51.100.8')).toBe(true);
      expect((await revealPostbackSecret(tx, owner)).secret).toBe(postback);

      // Idempotent: nothing selected, nothing rewritten.
      const before = await Promise.all(legacy.map(async (ep) => (await endpointRow(tx, ep.id)).secret));
      const again = await reencryptSecrets(tx, { tenantId: t.tenant.id, batchSize: 2 });
      expect(Object.values(again.columns).every((n) => n.sealed + n.resealed + n.changedMeanwhile + n.failed === 0)).toBe(true);
      expect(await Promise.all(legacy.map(async (ep) => (await endpointRow(tx, ep.id)).secret))).toEqual(before);
    });
  });

  it('after a key rotation: values under the previous key keep working, and are re-sealed with the new key', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const oldKey = secretsKeyring().current.key;
    const oldId = secretsKeyring().current.id;
    await rolledBack(t.db, async (tx) => {
      const ep = await createTestWebhookEndpoint(tx, owner, { url: receiver.url });
      const email = `rotate-${process.pid}-${Date.now()}@example.com`;
      const user = await createUser(tx, { email, password: PASSWORD, role: 'owner', tenantId: t.tenant.id });
      const totp = generateTotpSecret();
      await tx
        .update(users)
        .set({ totpSecret: sealSecret(totp) })
        .where(eq(users.id, user.id));
      expect((await endpointRow(tx, ep.id)).secret.split(':')[2]).toBe(oldId);

      // The operator sets a new key and moves the old one to _PREVIOUS.
      const newKey = randomBytes(32);
      process.env.SECRETS_ENCRYPTION_KEY = newKey.toString('base64');
      process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS = oldKey.toString('hex');
      resetEnvCache();
      const newId = secretsKeyring().current.id;
      expect(newId).not.toBe(oldId);
      expect((await deliverOne(tx, owner))(ep.secret)).toBe(true);
      expect(await signsInWithTotp(tx, email, totp, '198.51.100.9')).toBe(true);

      // A rotation now seals the new secret and the kept old one with the new key.
      const rotated = await rotateWebhookSecret(tx, { id: ep.id, ...owner }, { graceHours: 1 });
      const afterRotation = await endpointRow(tx, ep.id);
      expect([afterRotation.secret, afterRotation.previousSecret].map((v) => v!.split(':')[2])).toEqual([newId, newId]);
      expect(openSecret(afterRotation.previousSecret!)).toBe(ep.secret);

      const report = await reencryptSecrets(tx, { tenantId: t.tenant.id });
      expect(report.failures).toEqual([]);
      expect(report.columns['users.totp_secret']).toEqual({ sealed: 0, resealed: 1, changedMeanwhile: 0, failed: 0 });
      const [u] = await tx.select().from(users).where(eq(users.id, user.id));
      expect(u!.totpSecret!.split(':')[2]).toBe(newId);

      // _PREVIOUS can go: everything opens with the new key alone.
      delete process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS;
      resetEnvCache();
      const check = await deliverOne(tx, owner);
      expect(check(rotated.secret) && check(ep.secret)).toBe(true);
      expect(await signsInWithTotp(tx, email, totp, '198.51.100.10')).toBe(true);
    });
  });

  it('reports a value it cannot open (key unknown) without its content, and leaves it', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    await rolledBack(t.db, async (tx) => {
      const ep = await createTestWebhookEndpoint(tx, owner);
      const foreign = sealSecret(ep.secret, { current: { id: 'deadbeef', key: randomBytes(32) }, previous: null });
      await tx.update(webhookEndpoints).set({ secret: foreign }).where(eq(webhookEndpoints.id, ep.id));
      const report = await reencryptSecrets(tx, { tenantId: t.tenant.id });
      expect(report.failures).toEqual([
        { table: 'webhook_endpoints', column: 'secret', key: [ep.id], reason: expect.stringMatching(/key deadbeef is neither/) },
      ]);
      expect(JSON.stringify(report)).not.toContain(foreign.split(':')[4]);
      expect((await endpointRow(tx, ep.id)).secret).toBe(foreign);
    });
  });

  it('never overwrites a value changed between its read and its write (compare-and-set)', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    await rolledBack(t.db, async (tx) => {
      for (let i = 0; i < 2; i++) await createTestWebhookEndpoint(tx, owner, { legacyPlaintext: true });
      const rotatedMeanwhile = sealSecret('whsec_rotated_meanwhile');
      let raced: string | undefined;
      // The first statement is the read of webhook_endpoints.secret: right after it, a "rotation" rewrites the first row read.
      const racing = new Proxy(tx, {
        get(target, prop, receiver) {
          if (prop !== 'execute') return Reflect.get(target, prop, receiver);
          return async (query: Parameters<Db['execute']>[0]) => {
            const res = await target.execute(query);
            if (raced === undefined) {
              raced = rowsOf<{ k_id: string }>(res)[0]!.k_id;
              await target.update(webhookEndpoints).set({ secret: rotatedMeanwhile }).where(eq(webhookEndpoints.id, raced));
            }
            return res;
          };
        },
      });
      const report = await reencryptSecrets(racing, { tenantId: t.tenant.id });
      expect(report.columns['webhook_endpoints.secret']).toEqual({ sealed: 1, resealed: 0, changedMeanwhile: 1, failed: 0 });
      expect((await endpointRow(tx, raced!)).secret).toBe(rotatedMeanwhile);
    });
  });
});
