import { schedules } from '@trigger.dev/sdk';
import { runScheduledJob } from '@/lib/jobs/run-job';
import { installPaymentHooks } from '@/lib/payment-hooks';
import { WITHDRAWAL_LANE_LEASE } from '@/lib/withdrawals/lane-lease';

// Trigger.dev loads this file in its own process: a finished withdrawal runs the payment hooks (a held payment's send-back).
installPaymentHooks();

// One lane per hot wallet: a queue with concurrency 1 keeps nonces in order (the job is named by the lane's lease).
// A minute-long run that passes each network's lane every second, side by side, until the next tick.
export const processWithdrawalsTask = schedules.task({
  id: 'process-withdrawals',
  cron: '* * * * *',
  maxDuration: 120,
  queue: { name: 'hot-wallet-lane', concurrencyLimit: 1 },
  run: () => runScheduledJob(WITHDRAWAL_LANE_LEASE, { runForMs: 55_000 }),
});

/** The auto-refund policy: proposals whose overpayment has settled become refunds (lib/refunds/requests/auto-refund.ts). */
export const autoRefundsTask = schedules.task({
  id: 'auto-refunds',
  cron: '* * * * *',
  run: () => runScheduledJob('auto-refunds'),
});
