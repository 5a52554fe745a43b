import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookDeliveries } from '@/db/schema';
import { rowsOf } from '@/lib/db';
import { emitEvent } from '@/lib/events/emit-event';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { parseAllowList } from './blocked-address';
import { inQueueOrder } from './claim-deliveries';
import { runDeliveryLoop } from './delivery-loop';
import { dispatchEvents } from './dispatch-events';
import { recordStatement } from './record-attempts';

const allow = parseAllowList('127.0.0.1');

describe('writing outcomes', () => {
  it('reaches each queue and log row by one probe on its id, not by the whole batch (each probe walked all 128 ids: quadratic)', async () => {
    const outcomes = Array.from({ length: 128 }, (_, i) => ({
      deliveryId: `whd_plan_${i}`,
      token: 'plan',
      status: (i % 2 ? 'SUCCEEDED' : 'FAILED') as 'SUCCEEDED' | 'FAILED',
      nextAttemptAt: i % 2 ? null : new Date(),
      lastError: null,
      attempt: null,
    }));
    const plan = rowsOf<{ 'QUERY PLAN': string }>(await inQueueOrder((await createTestTenant()).db, sql`explain ${recordStatement(outcomes)}`)).map(
      (x) => x['QUERY PLAN'],
    );
    const probes = plan
      .map((line, i) => (/Index Scan using (webhook_queue_\d_delivery_id_idx|webhook_deliveries_pkey)/.test(line) ? plan[i + 1]! : null))
      .filter((c): c is string => c !== null);
    expect(probes.length).toBeGreaterThanOrEqual(3);
    for (const cond of probes) expect(cond).not.toMatch(/ANY/);
  });

  it("gives a slot back when the receiver has answered, while the outcome's write still waits", async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const r = await startReceiver();
    await createTestWebhookEndpoint(t.db, owner, { url: r.url });
    for (let i = 0; i < 2; i++) await emitEvent(t.db, { ...owner, type: 'invoice.paid_out', subjectId: `inv_slot_${i}`, data: {} });
    await dispatchEvents(t.db, { tenantId: t.tenant.id });
    const controller = new AbortController();
    let loop: Promise<unknown> = Promise.resolve();
    let sentWhileBlocked = 0;
    // Both deliveries' log rows locked elsewhere: their outcome writes wait. One slot: the second delivery is
    // sent only if the first one's slot came back when its answer did.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`select id from webhook_deliveries where tenant_id = ${t.tenant.id} for update`);
      loop = runDeliveryLoop(t.db, { signal: controller.signal, concurrency: 1, perTarget: 1, idleMs: 20, allow, tenantId: t.tenant.id });
      const deadline = Date.now() + 10_000;
      while (r.received.length < 2 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
      sentWhileBlocked = r.received.length;
    });
    const readRows = () => t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.tenantId, t.tenant.id));
    const deadline = Date.now() + 10_000;
    while (!(await readRows()).every((d) => d.status === 'SUCCEEDED') && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    controller.abort();
    await loop;
    await r.close();
    expect(sentWhileBlocked).toBe(2);
    const rows = await readRows();
    expect(rows).toHaveLength(2);
    expect(rows.every((d) => d.status === 'SUCCEEDED' && d.attemptCount === 1)).toBe(true);
    expect(r.received).toHaveLength(2);
  });
});
