import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookPostbackSecrets } from '@/db/schema';
import { openSecret } from '@/lib/crypto/secret-box';
import { resetEnvCache } from '@/lib/env';
import { emitEvent } from '@/lib/events/emit-event';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { parseAllowList } from './blocked-address';
import { deliverDue } from './deliver-due';
import { verifyWebhook } from './verify-webhook';

// The receivers below listen on loopback: allow it, as the development setting does.
process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '127.0.0.1';
resetEnvCache();

let r: Awaited<ReturnType<typeof startReceiver>>;
let t: Awaited<ReturnType<typeof createTestTenant>>;
beforeAll(async () => {
  r = await startReceiver();
  t = await createTestTenant();
});
afterAll(() => r.close());

const create = (key: string, body: Record<string, unknown>) => call('POST', '/v1/webhooks/endpoints', { key, body });

describe('webhook endpoints API', () => {
  it('creates an endpoint with a whsec_ secret shown once; list and get show no secret', async () => {
    const res = await create(t.test, { url: r.url, eventsSubscribed: ['invoice.created'], description: 'shop' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^whe_/),
      url: r.url,
      enabled: true,
      eventsSubscribed: ['invoice.created'],
      description: 'shop',
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await call('GET', '/v1/webhooks/endpoints', { key: t.test });
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(res.body.id);
    expect(list.text).not.toContain('whsec_');
    const one = await call('GET', `/v1/webhooks/endpoints/${res.body.id}`, { key: t.test });
    expect(one.status).toBe(200);
    expect(one.body.secret).toBeUndefined();
  });

  it('refuses bad URLs and unknown event types with 400 and details', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [t.live, { url: 'http://example.com/hook', eventsSubscribed: ['*'] }, 'invalid_url'],
      [t.live, { url: 'http://localhost:4000/hook', eventsSubscribed: ['*'] }, 'invalid_url'],
      [t.live, { url: 'https://localhost/hook', eventsSubscribed: ['*'] }, 'invalid_url'],
      [t.test, { url: 'http://example.com/hook', eventsSubscribed: ['*'] }, 'invalid_url'],
      [t.test, { url: 'https://10.0.0.1/hook', eventsSubscribed: ['*'] }, 'invalid_url'],
      [t.test, { url: 'ftp://example.com/x', eventsSubscribed: ['*'] }, 'invalid_url'],
      [t.test, { url: 'not a url', eventsSubscribed: ['*'] }, 'invalid_url'],
      [t.test, { url: 'https://example.com', eventsSubscribed: ['invoice.bogus'] }, 'validation_failed'],
      [t.test, { url: 'https://example.com', eventsSubscribed: [] }, 'validation_failed'],
    ];
    for (const [key, body, code] of cases) {
      const res = await create(key, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.details?.length).toBeGreaterThan(0);
    }
    expect((await create(t.live, { url: 'https://example.com/hook', eventsSubscribed: ['*'] })).status).toBe(201);
  });

  it('allows at most 20 endpoints per tenant and mode', async () => {
    const u = await createTestTenant();
    for (let i = 0; i < 20; i++) expect((await create(u.test, { url: `https://example.com/${i}`, eventsSubscribed: ['*'] })).status).toBe(201);
    const res = await create(u.test, { url: 'https://example.com/21', eventsSubscribed: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('limit_exceeded');
    // The other mode has its own 20.
    expect((await create(u.live, { url: 'https://example.com/live', eventsSubscribed: ['*'] })).status).toBe(201);
  });

  it('updates and deletes an endpoint', async () => {
    const { body: ep } = await create(t.test, { url: 'https://example.com/a', eventsSubscribed: ['*'] });
    const patched = await call('PATCH', `/v1/webhooks/endpoints/${ep.id}`, {
      key: t.test,
      body: { enabled: false, eventsSubscribed: ['order.paid'], description: null },
    });
    expect(patched.body).toMatchObject({ enabled: false, eventsSubscribed: ['order.paid'], description: null });
    expect((await call('PATCH', `/v1/webhooks/endpoints/${ep.id}`, { key: t.test, body: { url: 'http://example.com' } })).body.code).toBe(
      'invalid_url',
    );
    expect((await call('DELETE', `/v1/webhooks/endpoints/${ep.id}`, { key: t.test })).body).toEqual({ id: ep.id, deleted: true });
    expect((await call('GET', `/v1/webhooks/endpoints/${ep.id}`, { key: t.test })).status).toBe(404);
  });

  it('test action sends webhook.test now and returns the outcome', async () => {
    const { body: ep } = await create(t.test, { url: r.url, eventsSubscribed: ['invoice.paid_out'] });
    const res = await call('POST', `/v1/webhooks/endpoints/${ep.id}/test`, { key: t.test });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, statusCode: 200, error: null, responseBody: 'ok', deliveryId: expect.stringMatching(/^whd_/) });
    const got = r.received.find((x) => x.headers['x-webhook-id'] === res.body.eventId)!;
    expect(JSON.parse(got.rawBody).type).toBe('webhook.test');
    expect(verifyWebhook({ secret: ep.secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok).toBe(true);

    r.setResponder((_q, out) => void out.writeHead(500).end('boom'));
    const failed = await call('POST', `/v1/webhooks/endpoints/${ep.id}/test`, { key: t.test });
    r.setResponder((_q, out) => void out.writeHead(200).end('ok'));
    expect(failed.body).toMatchObject({ success: false, statusCode: 500, error: 'HTTP 500', responseBody: 'boom' });
  });
});

describe('secret rotation', () => {
  async function rotateAndDeliver(graceHours?: number) {
    const u = await createTestTenant();
    const { body: ep } = await create(u.test, { url: r.url, eventsSubscribed: ['*'] });
    const rot = await call('POST', `/v1/webhooks/endpoints/${ep.id}/rotate-secret`, {
      key: u.test,
      body: graceHours === undefined ? undefined : { graceHours },
    });
    expect(rot.status).toBe(200);
    expect(rot.body.secret).toMatch(/^whsec_/);
    expect(rot.body.secret).not.toBe(ep.secret);
    const res = await call('POST', `/v1/webhooks/endpoints/${ep.id}/test`, { key: u.test });
    const got = r.received.find((x) => x.headers['x-webhook-id'] === res.body.eventId)!;
    const check = (secret: string) => verifyWebhook({ secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok;
    return { oldSecret: ep.secret as string, newSecret: rot.body.secret as string, sig: got.headers['x-webhook-signature'] as string, check, rot };
  }

  it('without grace: only the new secret signs', async () => {
    const x = await rotateAndDeliver();
    expect(x.sig.split(',')).toHaveLength(1);
    expect(x.check(x.newSecret)).toBe(true);
    expect(x.check(x.oldSecret)).toBe(false);
  });

  it('with grace: v1=<new>,v1=<old> until the grace period ends', async () => {
    const x = await rotateAndDeliver(24);
    const parts = x.sig.split(',');
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => /^v1=[0-9a-f]{64}$/.test(p))).toBe(true);
    expect(x.check(x.newSecret)).toBe(true);
    expect(x.check(x.oldSecret)).toBe(true);
    expect(Date.parse(x.rot.body.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
  });

  it('refuses graceHours above 72', async () => {
    const { body: ep } = await create(t.test, { url: r.url, eventsSubscribed: ['*'] });
    const res = await call('POST', `/v1/webhooks/endpoints/${ep.id}/rotate-secret`, { key: t.test, body: { graceHours: 73 } });
    expect(res.status).toBe(400);
  });
});

describe('postback secret', () => {
  it('can be revealed once, then only rotated', async () => {
    const u = await createTestTenant();
    expect((await call('GET', '/v1/webhooks/postback-secret', { key: u.test })).body).toMatchObject({ exists: false, revealed: false });
    const first = await call('POST', '/v1/webhooks/postback-secret/reveal', { key: u.test });
    expect(first.body.secret).toMatch(/^whsec_/);
    const again = await call('POST', '/v1/webhooks/postback-secret/reveal', { key: u.test });
    expect(again.status).toBe(409);
    const meta = await call('GET', '/v1/webhooks/postback-secret', { key: u.test });
    expect(meta.body).toMatchObject({ exists: true, revealed: true, lastFour: first.body.secret.slice(-4) });
    expect(meta.text).not.toContain(first.body.secret);
    const rotated = await call('POST', '/v1/webhooks/postback-secret/rotate', { key: u.test, body: { graceHours: 1 } });
    expect(rotated.body.secret).not.toBe(first.body.secret);
    expect(rotated.body.previousSecretExpiresAt).not.toBeNull();
  });

  it('is stored sealed on reveal and rotation, and postbacks verify with the secret the API returned', async () => {
    const u = await createTestTenant();
    const stored = async () =>
      (
        await u.db
          .select()
          .from(webhookPostbackSecrets)
          .where(and(eq(webhookPostbackSecrets.tenantId, u.tenant.id), eq(webhookPostbackSecrets.mode, 'test')))
      )[0]!;
    const first = (await call('POST', '/v1/webhooks/postback-secret/reveal', { key: u.test })).body.secret as string;
    expect((await stored()).secret).toMatch(/^enc:v1:/);
    expect((await stored()).secret).not.toContain(first.slice(6));
    const second = (await call('POST', '/v1/webhooks/postback-secret/rotate', { key: u.test, body: { graceHours: 1 } })).body.secret as string;
    const row = await stored();
    for (const v of [row.secret, row.previousSecret!]) {
      expect(v).toMatch(/^enc:v1:/);
      expect(v).not.toContain(first.slice(6));
      expect(v).not.toContain(second.slice(6));
    }
    expect([openSecret(row.secret), openSecret(row.previousSecret!)]).toEqual([second, first]);

    const ev = await emitEvent(u.db, {
      tenantId: u.tenant.id,
      mode: 'test',
      type: 'withdrawal.created',
      subjectId: 'wd_1',
      data: {},
      postBackUrl: r.url,
    });
    const [d] = await deliverDue(u.db, { tenantId: u.tenant.id, allow: parseAllowList('127.0.0.1') });
    expect(d!.status).toBe('SUCCEEDED');
    const got = r.received.find((x) => x.headers['x-webhook-id'] === ev.id)!;
    const check = (secret: string) => verifyWebhook({ secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok;
    expect(check(second) && check(first)).toBe(true);
  });
});
