import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries } from '@/db/schema';
import { emitEvent } from '@/lib/events/emit-event';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { parseAllowList } from './blocked-address';
import { deliverDue } from './deliver-due';

const allow = parseAllowList('127.0.0.1');
const H = 3_600_000;
let r: Awaited<ReturnType<typeof startReceiver>>;
let up = false;
beforeAll(async () => {
  r = await startReceiver((_q, res) => void res.writeHead(up ? 200 : 500).end());
});
afterAll(() => r.close());

async function tenantWithEndpoint() {
  const t = await createTestTenant();
  const { body: ep } = await call('POST', '/v1/webhooks/endpoints', { key: t.test, body: { url: r.url, eventsSubscribed: ['*'] } });
  const owner = { tenantId: t.tenant.id, mode: 'test' as const };
  return { t, ep, owner, run: (now = new Date()) => deliverDue(t.db, { now, tenantId: t.tenant.id, allow }) };
}

/** Drives a delivery through all 8 failed attempts on a fake clock. */
async function deadLetter(run: (now: Date) => Promise<unknown>) {
  const offsets = [0, 30e3, 150e3, 450e3, 1350e3, 4950e3, 15750e3, 37350e3];
  const t0 = Date.now();
  for (const o of offsets) await run(new Date(t0 + o));
}

const deliveriesOf = (s: Awaited<ReturnType<typeof tenantWithEndpoint>>, eventId: string) =>
  s.t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));

describe('replay', () => {
  it('re-delivers a dead-lettered event as a new delivery with a fresh schedule, and it succeeds', async () => {
    up = false;
    const s = await tenantWithEndpoint();
    const ev = await emitEvent(s.t.db, { ...s.owner, type: 'invoice.confirmed', subjectId: 'inv_1', data: {} });
    await deadLetter(s.run);
    expect((await deliveriesOf(s, ev.id))[0]!.status).toBe('DEAD_LETTER');

    up = true;
    const res = await call('POST', `/v1/webhooks/replay/${ev.id}`, { key: s.t.test });
    expect(res.status).toBe(202);
    expect(res.body.deliveryIds).toHaveLength(1);
    await s.run();
    const all = await deliveriesOf(s, ev.id);
    const fresh = all.find((d) => d.id === res.body.deliveryIds[0])!;
    expect(fresh).toMatchObject({ status: 'SUCCEEDED', attemptCount: 1 });
    expect(all.find((d) => d.id !== fresh.id)!.status).toBe('DEAD_LETTER');

    const log = await call('GET', `/v1/webhooks/deliveries?eventId=${ev.id}&status=SUCCEEDED`, { key: s.t.test });
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0].attempts[0]).toMatchObject({ number: 1, responseStatus: 200, error: null });
  });

  it('replays to one given endpoint only', async () => {
    up = true;
    const s = await tenantWithEndpoint();
    const { body: other } = await call('POST', '/v1/webhooks/endpoints', { key: s.t.test, body: { url: r.url, eventsSubscribed: ['order.paid'] } });
    const ev = await emitEvent(s.t.db, { ...s.owner, type: 'invoice.created', subjectId: 'inv_2', data: {} });
    const res = await call('POST', `/v1/webhooks/replay/${ev.id}`, { key: s.t.test, body: { endpointId: other.id } });
    expect(res.status).toBe(202);
    const [d] = await s.t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, res.body.deliveryIds[0]));
    expect(d!.endpointId).toBe(other.id);
  });
});

describe('recover', () => {
  it('replays failed and dead-lettered deliveries of the endpoint created since a time, once', async () => {
    up = false;
    const s = await tenantWithEndpoint();
    const early = await emitEvent(s.t.db, { ...s.owner, type: 'invoice.created', subjectId: 'inv_a', data: {} });
    await s.run(new Date(Date.now() - 2 * H)); // delivery created "two hours ago", failed
    await s.t.db
      .update(webhookDeliveries)
      .set({ createdAt: new Date(Date.now() - 2 * H) })
      .where(eq(webhookDeliveries.eventId, early.id));
    const since = new Date(Date.now() - H);
    const dead = await emitEvent(s.t.db, { ...s.owner, type: 'invoice.expired', subjectId: 'inv_b', data: {} });
    await deadLetter(s.run);
    const failing = await emitEvent(s.t.db, { ...s.owner, type: 'invoice.partial', subjectId: 'inv_c', data: {} });
    await s.run(); // first attempt fails: FAILED, retrying
    up = true;
    const ok = await emitEvent(s.t.db, { ...s.owner, type: 'invoice.paid_out', subjectId: 'inv_d', data: {} });
    await s.run();

    const res = await call('POST', `/v1/webhooks/endpoints/${s.ep.id}/recover`, { key: s.t.test, body: { since: since.toISOString() } });
    expect(res.status).toBe(202);
    expect(res.body.deliveryIds).toHaveLength(2);
    const replayed = await s.t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, s.ep.id));
    const fresh = replayed.filter((d) => res.body.deliveryIds.includes(d.id));
    expect(fresh.map((d) => d.eventId).sort()).toEqual([dead.id, failing.id].sort());
    expect(replayed.some((d) => d.eventId === early.id && d.replayOf)).toBe(false);
    expect(replayed.some((d) => d.eventId === ok.id && d.replayOf)).toBe(false);
    // The FAILED original stops retrying in favour of its replay.
    const original = replayed.find((d) => d.eventId === failing.id && !d.replayOf)!;
    expect(original).toMatchObject({ status: 'DEAD_LETTER', nextAttemptAt: null, supersededBy: expect.stringMatching(/^whd_/) });

    await s.run();
    const again = await call('POST', `/v1/webhooks/endpoints/${s.ep.id}/recover`, { key: s.t.test, body: { since: since.toISOString() } });
    expect(again.body.deliveryIds).toEqual([]);
    const succeeded = await call('GET', `/v1/webhooks/deliveries?endpointId=${s.ep.id}&status=SUCCEEDED`, { key: s.t.test });
    expect(succeeded.body.meta.total).toBe(3);
  });
});

describe('tenant isolation', () => {
  it("another tenant's or mode's endpoints, deliveries and events are invisible and not replayable", async () => {
    up = true;
    const a = await tenantWithEndpoint();
    const b = await tenantWithEndpoint();
    const ev = await emitEvent(a.t.db, { ...a.owner, type: 'invoice.created', subjectId: 'inv_i', data: {} });
    await a.run();

    expect((await call('GET', `/v1/webhooks/endpoints/${a.ep.id}`, { key: b.t.test })).status).toBe(404);
    expect((await call('GET', `/v1/webhooks/endpoints/${a.ep.id}`, { key: a.t.live })).status).toBe(404);
    expect((await call('PATCH', `/v1/webhooks/endpoints/${a.ep.id}`, { key: b.t.test, body: { enabled: false } })).status).toBe(404);
    expect((await call('GET', '/v1/webhooks/endpoints', { key: b.t.test })).body.data.map((e: { id: string }) => e.id)).not.toContain(a.ep.id);

    const mine = await call('GET', '/v1/webhooks/deliveries', { key: a.t.test });
    expect(mine.body.data.map((d: { eventId: string }) => d.eventId)).toContain(ev.id);
    for (const key of [b.t.test, a.t.live]) {
      const other = await call('GET', `/v1/webhooks/deliveries?eventId=${ev.id}`, { key });
      expect(other.body).toMatchObject({ data: [], meta: { total: 0 } });
      expect((await call('POST', `/v1/webhooks/replay/${ev.id}`, { key })).status).toBe(404);
    }
    const cross = await call('POST', `/v1/webhooks/replay/${ev.id}`, { key: a.t.test, body: { endpointId: b.ep.id } });
    expect(cross.status).toBe(404);
    expect((await call('POST', `/v1/webhooks/endpoints/${a.ep.id}/recover`, { key: b.t.test, body: { since: '2026-01-01T00:00:00Z' } })).status).toBe(
      404,
    );
  });
});
