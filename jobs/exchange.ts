import { schedules } from '@trigger.dev/sdk';
import { runScheduledJob } from '@/lib/jobs/run-job';
import { installPaymentHooks } from '@/lib/payment-hooks';

// Trigger.dev loads this file in its own process: the invoice event hooks must be in place before any task runs.
installPaymentHooks();

/** Trigger.dev: the exchange order tracker, a 55 s polling run per minute (one at a time: the weight budget is shared anyway). */
export const trackExchangeOrdersTask = schedules.task({
  id: 'track-exchange-orders',
  cron: '* * * * *',
  maxDuration: 120,
  queue: { name: 'exchange-tracker', concurrencyLimit: 1 },
  run: () => runScheduledJob('track-exchange-orders', { runForMs: 55_000 }),
});
