import { schedules } from '@trigger.dev/sdk';
import { getDb } from '@/lib/db';
import { purgeExpiredRequestState } from '@/lib/jobs/maintenance';

export const purgeExpiredRequestStateTask = schedules.task({
  id: 'purge-expired-request-state',
  cron: '* * * * *',
  run: async () => purgeExpiredRequestState(await getDb()),
});
