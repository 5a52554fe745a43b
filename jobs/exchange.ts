import { schedules } from '@trigger.dev/sdk';
import { getDb } from '@/lib/db';
import { trackExchangeOrdersLoop } from '@/lib/exchange/track-orders';
import { installPaymentHooks } from '@/lib/payment-hooks';

// Trigger.dev loads this file in its own process: the invoice event hooks must be in place before any task runs.
installPaymentHooks();

/** Trigger.dev: the exchange order tracker, a 55 s polling run per minute (one at a time: the weight budget is shared anyway). */
export const trackExchangeOrdersTask = schedules.task({
  id: 'track-exchange-orders',
  cron: '* * * * *',
  maxDuration: 120,
  queue: { name: 'exchange-tracker', concurrencyLimit: 1 },
  run: async () => trackExchangeOrdersLoop(await getDb(), { runForMs: 55_000 }),
});
