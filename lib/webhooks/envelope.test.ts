import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_API_VERSION } from '@/lib/api/versions';
import { deliveryRequestBodies, requestKey } from '@/lib/dashboard/delivery-requests';
import { emitEvent } from '@/lib/events/emit-event';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { parseAllowList } from './blocked-address';
import { deliverDue } from './deliver-due';
import { listWebhookDeliveries } from './list-webhook-deliveries';
import { rotateWebhookSecret } from './rotate-webhook-secret';
import { testWebhookEndpoint } from './test-webhook-endpoint';
import { verifyWebhook } from './verify-webhook';

const allow = parseAllowList('127.0.0.1');
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => void (receiver = await startReceiver()));
afterAll(() => receiver.close());

/** What the dashboard shows as the request body of this event's delivery, in the version its attempt recorded. */
async function dashboardBody(db: Parameters<typeof deliveryRequestBodies>[0], owner: { tenantId: string; mode: 'test' }, eventId: string) {
  const [d] = (await listWebhookDeliveries(db, owner, { page: 1, limit: 1, eventId })).data;
  const req = { eventId, apiVersion: d!.attempts.at(-1)!.apiVersion };
  return { apiVersion: req.apiVersion, body: (await deliveryRequestBodies(db, owner, [req])).get(requestKey(req)) };
}

// The envelope splices the stored jsonb's text in unparsed (issue 33): what a receiver gets must still be the
// event's data exactly, and the dashboard's "request as sent" must be the same bytes.
describe('webhook envelope', () => {
  it('carries the stored data exactly, and the dashboard shows the very bytes the receiver got', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const ep = await createTestWebhookEndpoint(t.db, owner, { url: receiver.url });
    const data = {
      invoiceId: 'inv_env',
      amountReceived: '1000000.000000000000000001',
      note: 'é ü 💸 "quoted" \\ back\nline',
      nested: { list: [1, '2', null, true, { deep: 'x' }], empty: {} },
    };
    const ev = await emitEvent(t.db, { ...owner, type: 'invoice.paid_out', subjectId: 'inv_env', data });
    const [r] = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
    expect(r!.status).toBe('SUCCEEDED');
    const got = receiver.received.find((x) => x.headers['x-webhook-id'] === ev.id)!;

    expect(JSON.parse(got.rawBody)).toEqual({
      id: ev.id,
      type: 'invoice.paid_out',
      apiVersion: LATEST_API_VERSION,
      createdAt: ev.createdAt.toISOString(),
      data,
    });
    expect(verifyWebhook({ secret: ep.secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok).toBe(true);
    expect(await dashboardBody(t.db, owner, ev.id)).toEqual({ apiVersion: LATEST_API_VERSION, body: got.rawBody });
  });

  it('a test event is sent and shown the same way', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const ep = await createTestWebhookEndpoint(t.db, owner, { url: receiver.url });
    const sent = await testWebhookEndpoint(t.db, { id: ep.id, ...owner }, { allow });
    expect(sent.success).toBe(true);
    const got = receiver.received.find((x) => x.headers['x-webhook-id'] === sent.eventId)!;
    expect(JSON.parse(got.rawBody).data).toEqual({ endpointId: ep.id, message: 'Test event sent from the gateway.' });
    expect(verifyWebhook({ secret: ep.secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok).toBe(true);
    expect((await dashboardBody(t.db, owner, sent.eventId)).body).toBe(got.rawBody);
  });

  it('an endpoint on an older API version gets the old name, and the dashboard shows those very bytes', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const ep = await createTestWebhookEndpoint(t.db, owner, { url: receiver.url, apiVersion: '2026-11-01' });
    const ev = await emitEvent(t.db, { ...owner, type: 'held_payment.refunded', subjectId: 'inv_old', data: { id: 'hp_1', amount: '1.00' } });
    const [r] = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
    expect(r!.status).toBe('SUCCEEDED');
    const got = receiver.received.find((x) => x.headers['x-webhook-id'] === ev.id)!;
    expect(JSON.parse(got.rawBody)).toMatchObject({
      type: 'mismatched_payment.refunded',
      apiVersion: '2026-11-01',
      data: { id: 'hp_1', amount: '1.00' },
    });
    expect(verifyWebhook({ secret: ep.secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok).toBe(true);
    expect(await dashboardBody(t.db, owner, ev.id)).toEqual({ apiVersion: '2026-11-01', body: got.rawBody });
  });

  it('a secret rotated without grace stops signing at once, though the worker keeps opened secrets in memory', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const ep = await createTestWebhookEndpoint(t.db, owner, { url: receiver.url });
    const deliver = async () => {
      const ev = await emitEvent(t.db, { ...owner, type: 'invoice.created', subjectId: 'inv_rot', data: {} });
      const [r] = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
      expect(r!.status).toBe('SUCCEEDED');
      const got = receiver.received.find((x) => x.headers['x-webhook-id'] === ev.id)!;
      return (secret: string) => verifyWebhook({ secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok;
    };
    const before = await deliver();
    expect(before(ep.secret)).toBe(true);
    const rotated = await rotateWebhookSecret(t.db, { id: ep.id, ...owner }, { graceHours: 0 });
    const after = await deliver();
    expect(after(rotated.secret)).toBe(true);
    expect(after(ep.secret)).toBe(false);
  });
});
