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
    await createTestWebhookEndpoint(t.db, owner, { url: slow.url, eventsSubscribed: ['order.created'] });
    const fastEp = await createTestWebhookEndpoint(t.db, owner, { url: fast.url, eventsSubscribed: ['invoice.created'] });
    for (let i = 0; i < 20; i++) await emitEvent(t.db, { ...owner, type: 'order.created', subjectId: `ord_${i}`, data: {} });
    for (let i = 0; i < 60; i++) await emitEvent(t.db, { ...owner, type: 'invoice.created', subjectId: `inv_${i}`, data: {} });

    const controller = new AbortController();
    const started = Date.now();
    const loop = runDeliveryLoop(t.db, { signal: controller.signal, concurrency: 8, perTarget: 4, slowPerTarget: 1, idleMs: 20, timeoutMs: 3000, allow, tenantId: t.tenant.id });
    while (new Set(fast.received.map((r) => r.headers['x-webhook-id'])).size < 60 && Date.now() - started < 2500) await new Promise((r) => setTimeout(r, 20));
    const elapsed = Date.now() - started;
    controller.abort();
    await loop;

    // All 60 went through the 4 slots the slow endpoint could not take, well before its 3 s timeouts.
    expect(new Set(fast.received.map((r) => r.headers['x-webhook-id'])).size).toBe(60);
    expect(fast.received).toHaveLength(60);
    expect(elapsed).toBeLessThan(2500);
    expect(slow.received.length).toBeLessThanOrEqual(4);
    const rows = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, fastEp.id));
    expect(rows.every((d) => d.status === 'SUCCEEDED' && d.attemptCount === 1)).toBe(true);
    await Promise.all([fast.close(), slow.close()]);
  });
});
