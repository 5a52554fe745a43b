import { schedules } from '@trigger.dev/sdk';
import { getDb } from '@/lib/db';
import { processAllWithdrawals } from '@/lib/withdrawals/process-withdrawals';

// One lane per hot wallet: a queue with concurrency 1 keeps nonces in order.
export const processWithdrawalsTask = schedules.task({
  id: 'process-withdrawals',
  cron: '* * * * *',
  queue: { name: 'hot-wallet-lane', concurrencyLimit: 1 },
  run: async () => processAllWithdrawals(await getDb()),
});
