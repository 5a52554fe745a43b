import { schedules } from '@trigger.dev/sdk';
import { runScheduledJob } from '@/lib/jobs/run-job';

/** Subscription billing (lib/subscriptions/run-billing.ts): each period's invoice, past due, canceled. */
export const subscriptionBillingTask = schedules.task({
  id: 'subscription-billing',
  cron: '* * * * *',
  run: () => runScheduledJob('subscription-billing'),
});
