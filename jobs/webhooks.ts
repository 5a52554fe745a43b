import { schedules } from '@trigger.dev/sdk';
import { getDb } from '@/lib/db';
import { runDeliveryLoop } from '@/lib/webhooks/delivery-loop';

/**
 * Trigger.dev: webhook fan-out and delivery. Each minute's run loops for 55 s
 * with many attempts in flight; claims are per delivery row, so overlapping
 * runs (or the local worker) never send the same attempt twice.
 */
export const webhookDeliveryTask = schedules.task({
  id: 'webhook-delivery',
  cron: '* * * * *',
  maxDuration: 120,
  run: async () => {
    const controller = new AbortController();
    return runDeliveryLoop(await getDb(), { signal: controller.signal, runForMs: 55_000 });
  },
});
