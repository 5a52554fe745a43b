import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllowList } from './blocked-address';
import { deliverDue } from './deliver-due';
import { signPayload } from './sign';
import { verifyWebhook } from './verify-webhook';
import { webhookEndpoints } from '@/db/schema';
import { openSecret, sealSecret } from '@/lib/crypto/secret-box';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { emitEvent } from '@/lib/events/emit-event';

const allow = parseAllowList('127.0.0.1');
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => void (receiver = await startReceiver()));
afterAll(() => receiver.close());

describe('webhook signature', () => {
  it('matches the spec byte for byte: v1=hex(HMAC-SHA256(secret, timestamp + "." + rawBody)) with exactly the spec headers', async () => {
    const t = await createTestTenant();
    const ep = await createTestWebhookEndpoint(t.db, { tenantId: t.tenant.id, mode: 'test' }, { url: receiver.url });
    const ev = await emitEvent(t.db, {
      tenantId: t.tenant.id,
      mode: 'test',
      type: 'invoice.paid_out',
      subjectId: 'inv_x',
      data: { amountReceived: '10.50', note: 'é ü 💸' },
    });
    const [r] = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
    expect(r!.status).toBe('SUCCEEDED');

    const got = receiver.received.find((x) => x.headers['x-webhook-id'] === ev.id)!;
    const ts = got.headers['x-webhook-timestamp'] as string;
    expect(ts).toMatch(/^\d{13}$/);
    // Independent recomputation with node:crypto over the exact bytes received.
    const expected =
      'v1=' +
      createHmac('sha256', ep.secret)
        .update(ts + '.' + got.rawBody, 'utf8')
        .digest('hex');
    expect(got.headers['x-webhook-signature']).toBe(expected);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-tenant-id']).toBe(t.tenant.id);
    const appHeaders = Object.keys(got.headers)
      .filter((h) => !['host', 'connection', 'content-length'].includes(h))
      .sort();
    expect(appHeaders).toEqual(['content-type', 'x-tenant-id', 'x-webhook-id', 'x-webhook-signature', 'x-webhook-timestamp']);

    const body = JSON.parse(got.rawBody);
    // The spec's envelope, plus apiVersion: the dated version it is rendered in (our extension, docs/webhooks.md#versions).
    expect(Object.keys(body)).toEqual(['id', 'type', 'apiVersion', 'createdAt', 'data']);
    expect(body).toMatchObject({
      id: ev.id,
      type: 'invoice.paid_out',
      createdAt: ev.createdAt.toISOString(),
      data: { amountReceived: '10.50', note: 'é ü 💸' },
    });
    expect(body.createdAt).toMatch(/\.\d{3}Z$/);
  });
});

describe('signing secrets at rest', () => {
  it('are stored sealed, and deliveries verify with the secret the API returned, on creation and through a rotation', async () => {
    const t = await createTestTenant();
    const created = await call('POST', '/v1/webhooks/endpoints', { key: t.test, body: { url: receiver.url, eventsSubscribed: ['*'] } });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    const stored = async () => (await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.body.id)))[0]!;
    const row = await stored();
    expect(row.secret).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(row.secret).not.toContain(secret);
    expect(row.secret).not.toContain(secret.slice(6));

    const deliver = async () => {
      const ev = await emitEvent(t.db, { tenantId: t.tenant.id, mode: 'test', type: 'invoice.created', subjectId: 'inv_x', data: {} });
      const [r] = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
      expect(r!.status).toBe('SUCCEEDED');
      const got = receiver.received.find((x) => x.headers['x-webhook-id'] === ev.id)!;
      return (s: string) => verifyWebhook({ secret: s, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok;
    };
    expect((await deliver())(secret)).toBe(true);

    const rotated = await call('POST', `/v1/webhooks/endpoints/${created.body.id}/rotate-secret`, { key: t.test, body: { graceHours: 1 } });
    const newSecret = rotated.body.secret as string;
    const after = await stored();
    for (const v of [after.secret, after.previousSecret!]) {
      expect(v).toMatch(/^enc:v1:/);
      expect(v).not.toContain(secret.slice(6));
      expect(v).not.toContain(newSecret.slice(6));
    }
    expect(openSecret(after.previousSecret!)).toBe(secret);
    const check = await deliver();
    expect(check(newSecret)).toBe(true);
    expect(check(secret)).toBe(true); // grace: v1=<new>,v1=<old>
  });

  it('a row written in clear before encryption at rest still signs', async () => {
    const t = await createTestTenant();
    const ep = await createTestWebhookEndpoint(t.db, { tenantId: t.tenant.id, mode: 'test' }, { url: receiver.url, legacyPlaintext: true });
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, ep.id));
    expect(row!.secret).toBe(ep.secret);
    const ev = await emitEvent(t.db, { tenantId: t.tenant.id, mode: 'test', type: 'invoice.created', subjectId: 'inv_x', data: {} });
    const [r] = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
    expect(r!.status).toBe('SUCCEEDED');
    const got = receiver.received.find((x) => x.headers['x-webhook-id'] === ev.id)!;
    expect(verifyWebhook({ secret: ep.secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok).toBe(true);
    // Seal it as `secrets:reencrypt` would: the run ends with no secret in clear (lib/testing/global-setup.ts).
    await t.db
      .update(webhookEndpoints)
      .set({ secret: sealSecret(ep.secret) })
      .where(eq(webhookEndpoints.id, ep.id));
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_test_secret';
  const rawBody = JSON.stringify({ id: 'evt_1', type: 'invoice.created', createdAt: '2026-01-01T00:00:00.000Z', data: {} });
  const now = 1_800_000_000_000;
  const headers = (sig: string, ts = now) => ({ 'X-Webhook-Id': 'evt_1', 'X-Webhook-Timestamp': String(ts), 'X-Webhook-Signature': sig });

  it('accepts a valid signature and returns the event', () => {
    const r = verifyWebhook({ secret, headers: headers(signPayload(secret, now, rawBody)), rawBody, now });
    expect(r).toMatchObject({ ok: true, id: 'evt_1' });
  });
  it('accepts any listed signature (rotation grace: v1=<new>,v1=<old>)', () => {
    const sig = `${signPayload('whsec_new', now, rawBody)},${signPayload(secret, now, rawBody)}`;
    expect(verifyWebhook({ secret, headers: headers(sig), rawBody, now }).ok).toBe(true);
    expect(verifyWebhook({ secret: 'whsec_new', headers: headers(sig), rawBody, now }).ok).toBe(true);
  });
  it('refuses a tampered body, a wrong secret and a stale timestamp', () => {
    const sig = signPayload(secret, now, rawBody);
    expect(verifyWebhook({ secret, headers: headers(sig), rawBody: rawBody.replace('created', 'expired'), now })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    expect(verifyWebhook({ secret: 'whsec_other', headers: headers(sig), rawBody, now })).toEqual({ ok: false, reason: 'bad_signature' });
    const old = now - 5 * 60_000 - 1;
    expect(verifyWebhook({ secret, headers: headers(signPayload(secret, old, rawBody), old), rawBody, now })).toEqual({
      ok: false,
      reason: 'timestamp_outside_tolerance',
    });
    expect(verifyWebhook({ secret, headers: {}, rawBody, now })).toEqual({ ok: false, reason: 'missing_headers' });
  });
});
