import { schedules } from '@trigger.dev/sdk';
import { runScheduledJob } from '@/lib/jobs/run-job';

/** Subscription billing (lib/subscriptions/run-billing.ts): each period's invoice, past due, canceled. */
export const subscriptionBillingTask = schedules.task({
  id: 'subscription-billing',
  cron: '* * * * *',
  run: () => runScheduledJob('subscription-billing'),
});

/** Automatic collection (lib/subscriptions/collect/run-collection.ts): each period pulled from the payer's wallet once, or e-mailed. */
export const subscriptionCollectionTask = schedules.task({
  id: 'subscription-collection',
  cron: '* * * * *',
  run: () => runScheduledJob('subscription-collection'),
});

/** The e-mail outbox (lib/email/send-emails.ts): invoices, reminders and receipts over SMTP, with retries. */
export const sendEmailsTask = schedules.task({
  id: 'send-emails',
  cron: '* * * * *',
  run: () => runScheduledJob('send-emails'),
});
