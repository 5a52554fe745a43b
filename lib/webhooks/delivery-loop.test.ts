import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookDeliveries } from '@/db/schema';
import { emitEvent } from '@/lib/events/emit-event';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { parseAllowList } from './blocked-address';
import { runDeliveryLoop } from './delivery-loop';

const allow = parseAllowList('127.0.0.1');

describe('delivery loop', () => {
  it('delivers everything while a slow endpoint hangs, without letting it hold back the others', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const fast = await startReceiver();
    const slow = await startReceiver(() => {}); // never answers
    const slowEp = await createTestWebhookEndpoint(t.db, owner, { url: slow.url, eventsSubscribed: ['order.created'] });
    const fastEp = await createTestWebhookEndpoint(t.db, owner, { url: fast.url, eventsSubscribed: ['invoice.created'] });
    for (let i = 0; i < 20; i++) await emitEvent(t.db, { ...owner, type: 'order.created', subjectId: `ord_${i}`, data: {} });
    for (let i = 0; i < 60; i++) await emitEvent(t.db, { ...owner, type: 'invoice.created', subjectId: `inv_${i}`, data: {} });

    const controller = new AbortController();
    // The slow endpoint's attempts would time out after 30 s: what is asserted is the order of events (all 60 through
    // while every slow attempt still hangs), not a wall-clock figure, which a shared machine cannot promise.
    const loop = runDeliveryLoop(t.db, {
      signal: controller.signal,
      concurrency: 8,
      perTarget: 4,
      slowPerTarget: 1,
      idleMs: 20,
      timeoutMs: 30_000,
      allow,
      tenantId: t.tenant.id,
    });
    const deadline = Date.now() + 25_000;
    // The receiver sees a request before the loop records its answer, so wait for the rows too.
    const readFast = () => t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, fastEp.id));
    let rows = await readFast();
    while (
      (new Set(fast.received.map((r) => r.headers['x-webhook-id'])).size < 60 || !rows.every((d) => d.status === 'SUCCEEDED')) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 20));
      rows = await readFast();
    }
    const slowRows = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, slowEp.id));

    // All 60 went through the slots the slow endpoint could not take, while none of its attempts had ended.
    expect(new Set(fast.received.map((r) => r.headers['x-webhook-id'])).size).toBe(60);
    expect(fast.received).toHaveLength(60);
    expect(slowRows).toHaveLength(20);
    expect(slowRows.every((d) => d.status !== 'SUCCEEDED' && d.attemptCount === 0 && d.lastError === null)).toBe(true);
    expect(slow.received.length).toBeLessThanOrEqual(4);
    expect(rows).toHaveLength(60);
    expect(rows.every((d) => d.status === 'SUCCEEDED' && d.attemptCount === 1)).toBe(true);
    controller.abort();
    await slow.close(); // ends the hanging attempts, so the loop can stop
    await loop;
    await fast.close();
  });
});
