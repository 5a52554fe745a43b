import { purgeExpiredRequestState } from './maintenance';
import { processAllWithdrawals } from '@/lib/withdrawals/process-withdrawals';
import { WITHDRAWAL_LANE_LEASE } from '@/lib/withdrawals/lane-lease';
import { runDeliveryLoop } from '@/lib/webhooks/delivery-loop';
import { rotateWebhookQueue } from '@/lib/webhooks/rotate-queue';
import { INVOICE_JOBS } from './invoice-jobs';
import type { ScheduledJob } from './scheduled-job';
import { trackExchangeOrdersLoop } from '@/lib/exchange/track-orders';
import { runAutoRefunds } from '@/lib/refunds/requests/auto-refund';
import { runSolvency } from '@/lib/solvency/run-solvency';
import { env } from '@/lib/env';
import { runBilling } from '@/lib/subscriptions/run-billing';
import { runCollection } from '@/lib/subscriptions/collect/run-collection';
import { sendEmails } from '@/lib/email/send-emails';

/** Every scheduled job. The local worker runs these; jobs/ runs the same entries by name (runScheduledJob) for Trigger.dev. */
export const SCHEDULED_JOBS: ScheduledJob[] = [
  { name: 'purge-expired-request-state', everyMs: 60_000, leaseMs: 60_000, run: (db) => purgeExpiredRequestState(db) },
  // Webhook fan-out and delivery: one run is a 25 s loop with many attempts in flight (per-row claims make overlap safe).
  {
    name: 'webhook-delivery',
    everyMs: 500,
    leaseMs: 45_000,
    run: (db, signal, opts) => runDeliveryLoop(db, { signal, runForMs: opts?.runForMs ?? 25_000 }),
  },
  // The webhook queue's dead rows cleared by partition rotation, whatever autovacuum does (lib/webhooks/rotate-queue.ts).
  { name: 'webhook-queue-rotate', everyMs: 2_000, leaseMs: 30_000, run: (db) => rotateWebhookQueue(db) },
  // Invoices: chain watch per mode, expiry, settlement fan-out and settlement (lib/jobs/invoice-jobs.ts).
  ...INVOICE_JOBS,
  // The hot wallet's sending lane: one runner at a time (the lease, also taken by the exchange's send-now path).
  // A run loops each network's lane (a pass a second) side by side, so a hung node holds up only its own network.
  {
    name: WITHDRAWAL_LANE_LEASE,
    everyMs: 1_000,
    leaseMs: 120_000,
    run: (db, signal, opts) => processAllWithdrawals(db, { signal, runForMs: opts?.runForMs ?? 25_000, pollMs: 1_000 }),
  },
  // The auto-refund policy: overpayments refunded to the payer's proposed address once settled (lib/refunds/requests).
  { name: 'auto-refunds', everyMs: 3_000, leaseMs: 60_000, run: (db) => runAutoRefunds(db) },
  // Exchange orders (withdrawals, pay-ins) followed to a final status within the shared weight budget: a 55 s loop
  // that polls as soon as the tracker's pace allows (lib/exchange/track-orders.ts), like the chain watcher.
  {
    name: 'track-exchange-orders',
    everyMs: 100,
    leaseMs: 90_000,
    run: (db, signal, opts) => trackExchangeOrdersLoop(db, { signal, runForMs: opts?.runForMs ?? 55_000 }),
  },
  // Subscriptions: each period's invoice (once per period, whatever runs concurrently), past due, canceled (lib/subscriptions).
  { name: 'subscription-billing', everyMs: 60_000, leaseMs: 120_000, run: (db) => runBilling(db) },
  // Automatic collection (EVM rails): each period with a payer's permission pulled once, else e-mailed (lib/subscriptions/collect).
  { name: 'subscription-collection', everyMs: 15_000, leaseMs: 180_000, run: (db) => runCollection(db) },
  // The e-mail outbox sent over SMTP with retries (lib/email): apart from every payment path.
  { name: 'send-emails', everyMs: 5_000, leaseMs: 60_000, run: (db) => sendEmails(db) },
  // Held on chain against owed, per mode, network and token, and the gas wallets against their floors (lib/solvency).
  {
    name: 'solvency',
    get everyMs() {
      return env().SOLVENCY_EVERY_SECONDS * 1000;
    },
    leaseMs: 120_000,
    run: (db) => runSolvency(db),
  },
];
