import { schedules } from '@trigger.dev/sdk';
import { runScheduledJob } from '@/lib/jobs/run-job';

// One lane per hot wallet: a queue with concurrency 1 keeps nonces in order.
export const processWithdrawalsTask = schedules.task({
  id: 'process-withdrawals',
  cron: '* * * * *',
  queue: { name: 'hot-wallet-lane', concurrencyLimit: 1 },
  run: () => runScheduledJob('process-withdrawals'),
});
