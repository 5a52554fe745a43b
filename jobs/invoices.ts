import { schedules, schemaTask } from '@trigger.dev/sdk';
import { getDb } from '@/lib/db';
import { chainWatchJob } from '@/lib/jobs/invoice-jobs';
import { runScheduledJob } from '@/lib/jobs/run-job';
import { enqueueDueSettlements, runSettleInvoiceJob, SettleInvoicePayload } from '@/lib/jobs/settle-invoice-job';
import { MODES } from '@/lib/mode';
import { installPaymentHooks } from '@/lib/payment-hooks';

// Trigger.dev loads this file in its own process: the invoice event hooks must be in place before any task runs.
installPaymentHooks();

/** Trigger.dev: the chain watcher, one minute-long polling run per schedule tick for every configured mode. */
export const chainWatchTask = schedules.task({
  id: 'chain-watch',
  cron: '* * * * *',
  maxDuration: 120,
  run: async () => {
    await Promise.all(MODES.map((mode) => runScheduledJob(chainWatchJob(mode), { runForMs: 55_000 })));
  },
});

export const expireInvoicesTask = schedules.task({
  id: 'expire-invoices',
  cron: '* * * * *',
  run: () => runScheduledJob('expire-invoices'),
});

/** Keeps pre-derived deposit addresses ready so POST /v1/invoices only claims one. */
export const depositAddressPoolTask = schedules.task({
  id: 'deposit-address-pool',
  cron: '* * * * *',
  run: () => runScheduledJob('deposit-address-pool'),
});

/** Reclaims what finished or failed sweeps left behind (TRON: energy delegated to deposit addresses). */
export const sweepJanitorTask = schedules.task({
  id: 'sweep-janitor',
  cron: '* * * * *',
  run: () => runScheduledJob('sweep-janitor'),
});

/** One run per settlement; the idempotency key (the settlement id) stops a second run being queued for it. */
export const settleInvoiceTask = schemaTask({
  id: 'settle-invoice',
  schema: SettleInvoicePayload,
  maxDuration: 600,
  // Retries and backoff live in the settlement row (attempts, nextAttemptAt), shared with the local worker.
  retry: { maxAttempts: 1 },
  run: async (payload) => runSettleInvoiceJob(await getDb(), payload),
});

/** Fan-out: creates settlements for confirmed invoices and unswept funds, and queues one settle-invoice run each. */
export const settlementFanOutTask = schedules.task({
  id: 'settlement-fanout',
  cron: '* * * * *',
  run: async () => {
    await runScheduledJob('settlement-fanout');
    await enqueueDueSettlements(await getDb(), (payload, idempotencyKey) => settleInvoiceTask.trigger(payload, { idempotencyKey }));
  },
});
