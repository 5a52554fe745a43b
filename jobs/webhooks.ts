import { schedules } from '@trigger.dev/sdk';
import { runScheduledJob } from '@/lib/jobs/run-job';

/**
 * Trigger.dev: webhook fan-out and delivery. Each minute's run loops for 55 s
 * with many attempts in flight; claims are per delivery row, so overlapping
 * runs (or the local worker) never send the same attempt twice.
 */
export const webhookDeliveryTask = schedules.task({
  id: 'webhook-delivery',
  cron: '* * * * *',
  maxDuration: 120,
  run: () => runScheduledJob('webhook-delivery', { runForMs: 55_000 }),
});

/** The webhook queue's rotation (lib/webhooks/rotate-queue.ts): a cheap check each minute on Trigger.dev, every 2 s locally. */
export const webhookQueueRotateTask = schedules.task({
  id: 'webhook-queue-rotate',
  cron: '* * * * *',
  run: () => runScheduledJob('webhook-queue-rotate'),
});
