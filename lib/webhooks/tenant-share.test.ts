import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookDeliveries } from '@/db/schema';
import { emitEvent } from '@/lib/events/emit-event';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { parseAllowList } from './blocked-address';
import { runDeliveryLoop } from './delivery-loop';
import { replayEvent } from './replay-event';

const allow = parseAllowList('127.0.0.1');

describe('delivery slots per tenant', () => {
  it("one tenant's twenty hanging endpoints and a replay storm take at most its share; another tenant's events are all delivered meanwhile", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const aOwner = { tenantId: a.tenant.id, mode: 'test' as const };
    const bOwner = { tenantId: b.tenant.id, mode: 'test' as const };
    const hanging = await startReceiver(() => {}); // never answers
    const fast = await startReceiver();
    const aEndpoints = [];
    for (let i = 0; i < 20; i++) aEndpoints.push(await createTestWebhookEndpoint(a.db, aOwner, { url: `${hanging.url}/${i}` }));
    await createTestWebhookEndpoint(b.db, bOwner, { url: fast.url });
    const aEvents = [];
    for (let i = 0; i < 5; i++) aEvents.push(await emitEvent(a.db, { ...aOwner, type: 'order.created', subjectId: `ord_a${i}`, data: {} }));
    // The storm: every event replayed to all twenty endpoints, twice.
    for (const ev of aEvents) for (let r = 0; r < 2; r++) await replayEvent(a.db, aOwner, ev.id);
    for (let i = 0; i < 30; i++) await emitEvent(b.db, { ...bOwner, type: 'invoice.created', subjectId: `inv_b${i}`, data: {} });

    const controller = new AbortController();
    // Eight slots, two per tenant (one kept free for a newcomer); attempts to A's receivers would hang for a minute.
    const loop = runDeliveryLoop(a.db, {
      signal: controller.signal,
      concurrency: 8,
      perTarget: 4,
      slowPerTarget: 1,
      idleMs: 20,
      timeoutMs: 60_000,
      allow,
      tenantId: [a.tenant.id, b.tenant.id],
    });
    const started = Date.now();
    // The receiver sees a request before the loop records its answer, so wait for the rows too.
    const readB = () => b.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.tenantId, b.tenant.id));
    let bRows = await readB();
    while (
      (new Set(fast.received.map((r) => r.headers['x-webhook-id'])).size < 30 || !bRows.every((d) => d.status === 'SUCCEEDED')) &&
      Date.now() - started < 15_000
    ) {
      await new Promise((r) => setTimeout(r, 20));
      bRows = await readB();
    }
    const hangingInFlight = hanging.received.length;
    const aRows = await a.db
      .select()
      .from(webhookDeliveries)
      .where(
        inArray(
          webhookDeliveries.endpointId,
          aEndpoints.map((e) => e.id),
        ),
      );
    controller.abort();
    await hanging.close(); // ends A's hanging attempts so the loop can stop
    await loop;
    await fast.close();

    // Every one of B's events went out and succeeded, first time, while A's attempts were all still hanging.
    expect(new Set(fast.received.map((r) => r.headers['x-webhook-id'])).size).toBe(30);
    expect(bRows).toHaveLength(30);
    expect(bRows.every((d) => d.status === 'SUCCEEDED' && d.attemptCount === 1)).toBe(true);
    expect(aRows.length).toBe(5 * 20 * 3);
    expect(aRows.every((d) => d.attemptCount === 0)).toBe(true);
    // A's hanging receivers never held every slot.
    expect(hangingInFlight).toBeLessThan(8);
  });
});
