/**
 * Webhook slot hogging: tenant A has twenty endpoints that never answer (each
 * attempt holds its slot until the 10 s timeout) and keeps them fed, a backlog
 * of events plus a replay every 50 ms (each to all twenty). Victim: tenant B's
 * events to its one prompt endpoint, timed from the event's write to its
 * arrival at the receiver. One delivery worker with the production settings
 * (WEBHOOK_CONCURRENCY 128, the default tenant share), in-process; receivers on
 * random loopback ports.
 */
import { withBenchDatabase } from '../lib/harness';
import type { AbuseRow } from './types';
import { attacker, p99, summary, victim } from './victim';

const EVENTS = Number(process.env.BENCH_ABUSE_EVENTS ?? 40);
const GIVE_UP_MS = 30_000;

export default async function run(): Promise<AbuseRow> {
  return withBenchDatabase(async () => {
    const { emitEvent } = await import('@/lib/events/emit-event');
    const { createTestTenant } = await import('@/lib/testing/fixtures');
    const { startReceiver } = await import('@/lib/testing/webhook-receiver');
    const { createTestWebhookEndpoint } = await import('@/lib/testing/webhook-resources');
    const { parseAllowList } = await import('@/lib/webhooks/blocked-address');
    const { runDeliveryLoop } = await import('@/lib/webhooks/delivery-loop');
    const { replayEvent } = await import('@/lib/webhooks/replay-event');

    const a = await createTestTenant({ name: 'Hog' });
    const b = await createTestTenant({ name: 'Victim' });
    const aOwner = { tenantId: a.tenant.id, mode: 'test' as const };
    const bOwner = { tenantId: b.tenant.id, mode: 'test' as const };
    const hanging = await startReceiver(() => {});
    const fast = await startReceiver();
    for (let i = 0; i < 20; i++) await createTestWebhookEndpoint(a.db, aOwner, { url: `${hanging.url}/${i}` });
    await createTestWebhookEndpoint(b.db, bOwner, { url: fast.url });
    const arrived = new Set<string>();
    fast.setResponder((r, res) => {
      arrived.add(String(r.headers['x-webhook-id']));
      res.writeHead(200).end('ok');
    });

    const controller = new AbortController();
    const loop = runDeliveryLoop(a.db, { signal: controller.signal, allow: parseAllowList('127.0.0.1') });
    const victimOp = (offset: number) => async (i: number) => {
      const ev = await emitEvent(b.db, { ...bOwner, type: 'invoice.created', subjectId: `inv_${offset + i}`, data: { i } });
      const t0 = Date.now();
      while (!arrived.has(ev.id)) {
        if (Date.now() - t0 > GIVE_UP_MS) return 'not delivered within 30 s';
        await new Promise((r) => setTimeout(r, 2));
      }
      return null;
    };
    try {
      await victimOp(10_000)(0); // warm-up
      const alone = await victim(EVENTS, 50, victimOp(0));

      const seeds: { id: string }[] = [];
      for (let i = 0; i < 50; i++) seeds.push(await emitEvent(a.db, { ...aOwner, type: 'order.created', subjectId: `ord_${i}`, data: { i } }));
      const storm = attacker(1, async (i) => {
        await replayEvent(a.db, aOwner, seeds[i % seeds.length]!.id);
        await new Promise((r) => setTimeout(r, 50));
        return 'replayed (20 deliveries)';
      });
      await new Promise((r) => setTimeout(r, 3_000)); // the hanging attempts take their slots
      const under = await victim(EVENTS, 50, victimOp(1_000));
      const stormOutcomes = await storm.stop();
      const hung = hanging.received.length;
      return {
        scenario: 'webhook-slot-hog',
        victimAloneP99Ms: p99(alone.latencies),
        victimAttackP99Ms: p99(under.latencies),
        victimRequests: alone.latencies.length + under.latencies.length,
        victimRefused: alone.refused + under.refused,
        note: `hog: 20 hanging endpoints, 1000 queued + ${summary(stormOutcomes)}; attempts reaching the hanging receiver: ${hung}${under.firstRefusal ? `; victim: ${under.firstRefusal}` : ''}`,
      };
    } finally {
      controller.abort();
      await hanging.close();
      await loop;
      await fast.close();
    }
  });
}
