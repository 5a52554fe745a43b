/**
 * Our webhook path as the worker runs it: events written through the outbox
 * (outbox.write, the insert trigger queues them), the delivery loop (fan-out
 * → claim → sign → record the outcome), the queue rotation every 2 s, with
 * the transport swapped for an instant one (no HTTP). One endpoint per run,
 * subscribed to the type, so one delivery per event. A failed attempt is
 * retried after RETRY_DELAY_S (WEBHOOK_RETRY_SCALE, set by bench/queues.ts).
 */
import postgres from 'postgres';
import type { Db } from '@/lib/db';
import { outbox } from '@/lib/events/outbox';
import { createTestTenant } from '@/lib/testing/fixtures';
import { parseAllowList } from '@/lib/webhooks/blocked-address';
import { runDeliveryLoop } from '@/lib/webhooks/delivery-loop';
import { rotateWebhookQueue } from '@/lib/webhooks/rotate-queue';
import { newWebhookSecret } from '@/lib/webhooks/secret';
import { env } from '@/lib/env';
import { endpoint } from '../webhooks';
import { METER_APP } from '../lib/db-cpu';
import { payload, type Mix, type QueueSystem, type Tracker } from './common';

export async function ourPath(db: Db, connectionString: string, datname: string, concurrency = env().WEBHOOK_CONCURRENCY): Promise<QueueSystem> {
  const check = postgres(connectionString, { max: 1, onnotice: () => {}, connection: { application_name: METER_APP } });
  let tenantId = '';
  let stopLoop: (() => Promise<unknown>) | null = null;
  return {
    name: 'ours',
    datname,
    settings: `our delivery loop (lib/webhooks): WEBHOOK_CONCURRENCY ${concurrency} (per tenant ${Math.max(2, Math.floor(concurrency / 4))}, per endpoint ${Math.floor(concurrency / 2)}), DB_POOL_MAX ${env().DB_POOL_MAX}, rotation every 2 s; outbox.write of 1,000 events; retry after ${30 * env().WEBHOOK_RETRY_SCALE} s (WEBHOOK_RETRY_SCALE ${env().WEBHOOK_RETRY_SCALE})`,
    async start(mix: Mix, tracker: Tracker) {
      void mix;
      tenantId = (await createTestTenant({ name: `Bench queues ${Date.now()}` })).tenant.id;
      await endpoint(db, tenantId, 'http://127.0.0.1:9/hook', newWebhookSecret(), ['invoice.created']);
      const controller = new AbortController();
      const done = runDeliveryLoop(db, {
        signal: controller.signal,
        concurrency,
        perTenant: Math.max(2, Math.floor(concurrency / 4)),
        allow: parseAllowList('127.0.0.1'),
        send: async ({ body }) => {
          const a = tracker.attempt(Number(/"seq": ?(\d+)/.exec(body)![1]));
          if (a.ok) tracker.succeeded++;
          return a.ok
            ? { ok: true, status: 200, durationMs: 0, error: null, responseBody: null, retryAfter: null }
            : { ok: false, status: 500, durationMs: 0, error: 'HTTP 500', responseBody: null, retryAfter: null };
        },
      });
      const rotation = setInterval(() => void rotateWebhookQueue(db).catch(() => {}), 2_000);
      stopLoop = async () => (clearInterval(rotation), controller.abort(), done);
    },
    async enqueue(from: number, n: number) {
      for (let i = 0; i < n; i += 1000) {
        const now = new Date();
        const rows = Array.from({ length: Math.min(1000, n - i) }, (_, k) =>
          outbox.row({ tenantId, mode: 'test', type: 'invoice.created', subjectId: 'inv_bench', data: payload(from + i + k) }, now),
        );
        await outbox.write(db, rows);
      }
    },
    async left() {
      const [r] =
        await check`select (select count(*) from webhook_queue where tenant_id = ${tenantId}) + (select count(*) from event_outbox where tenant_id = ${tenantId}) as n`;
      return Number(r!.n);
    },
    async stop() {
      await stopLoop?.();
      stopLoop = null;
    },
    async close() {
      await check.end();
    },
  };
}
