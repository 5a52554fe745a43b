import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '@/db/schema';
import { emitEvent } from '@/lib/events/emit-event';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { parseAllowList } from './blocked-address';
import { deliverDue } from './deliver-due';
import { rotatePostbackSecret } from './rotate-postback-secret';
import { verifyWebhook } from './verify-webhook';

const allow = parseAllowList('127.0.0.1');
let a: Awaited<ReturnType<typeof startReceiver>>;
let b: Awaited<ReturnType<typeof startReceiver>>;
let pb: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  [a, b, pb] = await Promise.all([startReceiver(), startReceiver(), startReceiver()]);
});
afterAll(() => Promise.all([a.close(), b.close(), pb.close()]));

const ids = (r: typeof a) => r.received.map((x) => x.headers['x-webhook-id']);

describe('fan-out routing', () => {
  it('sends each event only to enabled endpoints subscribed to its type (or "*"), of the same mode', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    await createTestWebhookEndpoint(t.db, owner, { url: a.url, eventsSubscribed: ['invoice.paid_out'] });
    await createTestWebhookEndpoint(t.db, owner, { url: b.url, eventsSubscribed: ['*'] });
    await createTestWebhookEndpoint(t.db, owner, { url: pb.url, enabled: false });
    await createTestWebhookEndpoint(t.db, { ...owner, mode: 'live' }, { url: pb.url });
    const created = await emitEvent(t.db, { ...owner, type: 'invoice.created', subjectId: 'inv_1', data: {} });
    const paid = await emitEvent(t.db, { ...owner, type: 'invoice.paid_out', subjectId: 'inv_1', data: {} });
    const results = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
    expect(results.every((r) => r.status === 'SUCCEEDED')).toBe(true);
    expect(ids(a)).toEqual([paid.id]);
    expect(ids(b).sort()).toEqual([created.id, paid.id].sort());
    // The disabled endpoint and the live-mode endpoint share a receiver: it got nothing.
    expect(ids(pb)).toEqual([]);
  });

  it('closes a queued delivery unsent when its endpoint was disabled meanwhile', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const r = await startReceiver();
    const ep = await createTestWebhookEndpoint(t.db, owner, { url: r.url });
    const ev = await emitEvent(t.db, { ...owner, type: 'invoice.expired', subjectId: 'inv_2', data: {} });
    const { dispatchEvents } = await import('./dispatch-events');
    await dispatchEvents(t.db, { tenantId: t.tenant.id });
    const { webhookEndpoints } = await import('@/db/schema');
    await t.db.update(webhookEndpoints).set({ enabled: false }).where(eq(webhookEndpoints.id, ep.id));
    await deliverDue(t.db, { tenantId: t.tenant.id, allow });
    expect(r.received).toHaveLength(0);
    const [d] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, ev.id));
    expect(d).toMatchObject({ status: 'DEAD_LETTER', attemptCount: 0 });
    await r.close();
  });

  it('routes withdrawal events with a postBackUrl only to that URL, signed with the postback secret', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const ep = await createTestWebhookEndpoint(t.db, owner, { url: a.url, eventsSubscribed: ['*'] });
    const { secret } = await rotatePostbackSecret(t.db, owner, { graceHours: 0 });
    const before = a.received.length;
    const ev = await emitEvent(t.db, { ...owner, type: 'withdrawal.created', subjectId: 'wd_1', data: { amount: '5.00' }, postBackUrl: pb.url });
    const results = await deliverDue(t.db, { tenantId: t.tenant.id, allow });
    expect(results).toHaveLength(1);
    expect(a.received.length).toBe(before);
    const got = pb.received.find((x) => x.headers['x-webhook-id'] === ev.id)!;
    expect(verifyWebhook({ secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok).toBe(true);
    expect(verifyWebhook({ secret: ep.secret, headers: got.headers as Record<string, string>, rawBody: got.rawBody }).ok).toBe(false);
    const [d] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, ev.id));
    expect(d).toMatchObject({ endpointId: null, postBackUrl: pb.url, status: 'SUCCEEDED' });
  });

  it('fans out each event once even when dispatch runs twice', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    await createTestWebhookEndpoint(t.db, owner, { url: a.url });
    const ev = await emitEvent(t.db, { ...owner, type: 'order.paid', subjectId: 'ord_1', data: {} });
    const { dispatchEvents } = await import('./dispatch-events');
    await Promise.all([dispatchEvents(t.db, { tenantId: t.tenant.id }), dispatchEvents(t.db, { tenantId: t.tenant.id })]);
    await dispatchEvents(t.db, { tenantId: t.tenant.id });
    expect(await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, ev.id))).toHaveLength(1);
  });
});
