import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { emitEvent } from '@/lib/events/emit-event';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { parseAllowList } from './blocked-address';
import { deliverDue } from './deliver-due';
import { MAX_ATTEMPTS, nextAttemptAt, parseRetryAfter } from './schedule';

const allow = parseAllowList('127.0.0.1');

const S = 1000;
const M = 60 * S;
const H = 60 * M;
/** The spec's table: attempt n at these offsets from the event. */
const OFFSETS = [0, 30 * S, 2 * M + 30 * S, 7 * M + 30 * S, 22 * M + 30 * S, H + 22 * M + 30 * S, 4 * H + 22 * M + 30 * S, 10 * H + 22 * M + 30 * S];

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function setup(respond?: Parameters<Receiver['setResponder']>[0]) {
  const t = await createTestTenant();
  const owner = { tenantId: t.tenant.id, mode: 'test' as const };
  const r = await startReceiver(respond ?? ((_q, res) => void res.writeHead(503).end('unavailable')));
  const ep = await createTestWebhookEndpoint(t.db, owner, { url: r.url });
  const ev = await emitEvent(t.db, { ...owner, type: 'invoice.created', subjectId: 'inv_1', data: {} });
  const delivery = async () => (await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, ev.id)))[0]!;
  return { t, owner, r, ep, ev, delivery, run: (now: Date) => deliverDue(t.db, { now, tenantId: t.tenant.id, allow }) };
}

describe('retry schedule (controllable clock)', () => {
  it('attempts exactly at 0, 30 s, 2m30s, 7m30s, 22m30s, 1h22m30s, 4h22m30s, 10h22m30s, then DEAD_LETTER', async () => {
    const s = await setup();
    const t0 = new Date(Date.now() + 1000);
    for (let n = 1; n <= MAX_ATTEMPTS; n++) {
      const due = new Date(t0.getTime() + OFFSETS[n - 1]!);
      if (n > 1) {
        // One millisecond early: nothing is sent.
        expect(await s.run(new Date(due.getTime() - 1))).toHaveLength(0);
        expect((await s.delivery()).nextAttemptAt!.getTime()).toBe(due.getTime());
      }
      const results = await s.run(due);
      expect(results).toHaveLength(1);
      expect(results[0]!.number).toBe(n);
      expect(s.r.received).toHaveLength(n);
      expect(Number(s.r.received[n - 1]!.headers['x-webhook-timestamp'])).toBe(due.getTime());
      const d = await s.delivery();
      expect(d.attemptCount).toBe(n);
      expect(d.status).toBe(n < MAX_ATTEMPTS ? 'FAILED' : 'DEAD_LETTER');
    }
    const d = await s.delivery();
    expect(d.nextAttemptAt).toBeNull();
    expect(await s.run(new Date(t0.getTime() + 100 * H))).toHaveLength(0);
    expect(s.r.received).toHaveLength(8);
    await s.r.close();
  });

  it('a 2xx on a retry succeeds and stops the schedule', async () => {
    const s = await setup();
    const t0 = new Date(Date.now() + 1000);
    await s.run(t0);
    s.r.setResponder((_q, res) => void res.writeHead(204).end());
    await s.run(new Date(t0.getTime() + 30 * S));
    const d = await s.delivery();
    expect(d).toMatchObject({ status: 'SUCCEEDED', attemptCount: 2, nextAttemptAt: null });
    await s.r.close();
  });

  it('ignores a Retry-After shorter than the next step and honours a longer one', async () => {
    const s = await setup((_q, res) => void res.writeHead(429, { 'Retry-After': '5' }).end());
    const t0 = new Date(Date.now() + 1000);
    await s.run(t0);
    expect((await s.delivery()).nextAttemptAt!.getTime()).toBe(t0.getTime() + 30 * S);
    s.r.setResponder((_q, res) => void res.writeHead(503, { 'Retry-After': '600' }).end());
    const t1 = new Date(t0.getTime() + 30 * S);
    await s.run(t1);
    expect((await s.delivery()).nextAttemptAt!.getTime()).toBe(t1.getTime() + 600 * S);
    await s.r.close();
  });

  it('a 410 Gone disables the endpoint, dead-letters the delivery and says so in the log', async () => {
    const s = await setup((_q, res) => void res.writeHead(410).end('gone'));
    await s.run(new Date(Date.now() + 1000));
    const d = await s.delivery();
    expect(d.status).toBe('DEAD_LETTER');
    expect(d.lastError).toMatch(/410 Gone.*disabled/);
    const [ep] = await s.t.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, s.ep.id)));
    expect(ep).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('410') });
    await s.r.close();
  });

  it('keeps at most 4 KB of the response body', async () => {
    const s = await setup((_q, res) => void res.writeHead(500).end('x'.repeat(100_000)));
    const [r] = await s.run(new Date(Date.now() + 1000));
    expect(r!.outcome!.responseBody).toHaveLength(4096);
    await s.r.close();
  });
});

describe('schedule helpers', () => {
  it('nextAttemptAt follows the table, scales for tests and caps Retry-After at the longest step', () => {
    const t = new Date(0);
    expect(nextAttemptAt(1, t, null, 1)!.getTime()).toBe(30 * S);
    expect(nextAttemptAt(7, t, null, 1)!.getTime()).toBe(6 * H);
    expect(nextAttemptAt(8, t, null, 1)).toBeNull();
    expect(nextAttemptAt(1, t, null, 0.001)!.getTime()).toBe(30);
    expect(nextAttemptAt(1, t, 48 * H, 1)!.getTime()).toBe(6 * H);
  });
  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
