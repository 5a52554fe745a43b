import { schedules } from '@trigger.dev/sdk';
import { runScheduledJob } from '@/lib/jobs/run-job';

export const purgeExpiredRequestStateTask = schedules.task({
  id: 'purge-expired-request-state',
  cron: '* * * * *',
  run: () => runScheduledJob('purge-expired-request-state'),
});
