import { spawn } from 'node:child_process';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookAttempts, webhookDeliveries } from '@/db/schema';
import { emitEvent } from '@/lib/events/emit-event';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { createTestWebhookEndpoint } from '@/lib/testing/webhook-resources';
import { parseAllowList } from './blocked-address';
import { claimDeliveries } from './claim-deliveries';
import { deliverDue } from './deliver-due';
import { dispatchEvents } from './dispatch-events';
import { rowsOf, type Db } from '@/lib/db';

/** A delivery's row in the hot queue (claims live there, not in the log). */
async function queued(db: Db, deliveryIds: string[]) {
  return rowsOf<{ delivery_id: string; claim_token: string | null; claimed_until: string | null }>(
    await db.execute(
      sql`select delivery_id, claim_token, claimed_until::text from webhook_queue where delivery_id = any(string_to_array(${deliveryIds.join(',')}, ','))`,
    ),
  );
}

const allow = parseAllowList('127.0.0.1');
const ROOT = path.resolve(__dirname, '../..');

describe('a worker killed mid-delivery', () => {
  it('leaves the attempt to another worker once its claim expires: delivered, recorded exactly once', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    let hang = true;
    let gotFirst: () => void = () => {};
    const firstArrived = new Promise<void>((resolve) => (gotFirst = resolve));
    const r = await startReceiver((_q, res) => {
      if (hang) return gotFirst(); // never answers: the worker is mid-attempt when killed
      res.writeHead(200).end('ok');
    });
    await createTestWebhookEndpoint(t.db, owner, { url: r.url });
    const ev = await emitEvent(t.db, { ...owner, type: 'invoice.paid_out', subjectId: 'inv_k', data: {} });

    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'lib/testing/webhook-crash-worker.ts'), t.tenant.id, '2000'], {
      cwd: ROOT,
      env: process.env,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await firstArrived;
    child.kill('SIGKILL');
    await exited;

    const [claimed] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, ev.id));
    const [q] = await queued(t.db, [claimed!.id]);
    expect(q!.claim_token).not.toBeNull();
    expect(claimed!.attemptCount).toBe(0);
    // While the dead worker's claim lasts, nobody else sends it.
    expect(await deliverDue(t.db, { tenantId: t.tenant.id, allow })).toHaveLength(0);

    hang = false;
    const later = new Date(new Date(q!.claimed_until!).getTime() + 1);
    const results = await deliverDue(t.db, { now: later, tenantId: t.tenant.id, allow });
    expect(results).toMatchObject([{ status: 'SUCCEEDED', number: 1, recorded: true }]);
    expect(await deliverDue(t.db, { now: new Date(later.getTime() + 86_400_000), tenantId: t.tenant.id, allow })).toHaveLength(0);
    // Delivered: out of the hot queue.
    expect(await queued(t.db, [claimed!.id])).toEqual([]);

    expect(r.received.map((x) => x.headers['x-webhook-id'])).toEqual([ev.id, ev.id]);
    const attempts = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, claimed!.id));
    expect(attempts).toMatchObject([{ number: 1, responseStatus: 200 }]);
    await r.close();
  });
});

describe('concurrent workers', () => {
  it('never claim the same delivery twice', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const ep = await createTestWebhookEndpoint(t.db, owner, { url: 'https://example.com/x' });
    for (let i = 0; i < 60; i++) await emitEvent(t.db, { ...owner, type: 'order.created', subjectId: `ord_${i}`, data: { i } });
    await dispatchEvents(t.db, { tenantId: t.tenant.id });
    // Four workers claim side by side until nothing is left: every delivery is taken, none twice.
    const ids: string[] = [];
    for (let round = 0; round < 20; round++) {
      const batches = await Promise.all(Array.from({ length: 4 }, () => claimDeliveries(t.db, { limit: 10, tenantId: t.tenant.id })));
      if (batches.every((b) => b.length === 0)) break;
      ids.push(...batches.flat().map((d) => d.id));
    }
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    const rows = await t.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
    expect(rows.every((d) => d.endpointId === ep.id)).toBe(true);
    expect((await queued(t.db, ids)).every((q) => q.claim_token)).toBe(true);
  });

  it('a worker whose claim was taken over records nothing', async () => {
    const t = await createTestTenant();
    const owner = { tenantId: t.tenant.id, mode: 'test' as const };
    const r = await startReceiver();
    await createTestWebhookEndpoint(t.db, owner, { url: r.url });
    await emitEvent(t.db, { ...owner, type: 'order.created', subjectId: 'ord_z', data: {} });
    await dispatchEvents(t.db, { tenantId: t.tenant.id });
    const now = new Date();
    const [stale] = await claimDeliveries(t.db, { now, limit: 1, leaseMs: 10, tenantId: t.tenant.id });
    const [fresh] = await claimDeliveries(t.db, { now: new Date(now.getTime() + 20), limit: 1, tenantId: t.tenant.id });
    expect(fresh!.id).toBe(stale!.id);
    const { attemptDelivery } = await import('./attempt-delivery');
    expect((await attemptDelivery(t.db, stale!, { allow })).recorded).toBe(false);
    expect((await attemptDelivery(t.db, fresh!, { allow })).recorded).toBe(true);
    await r.close();
  });
});
