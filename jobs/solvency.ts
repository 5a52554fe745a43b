import { schedules } from '@trigger.dev/sdk';
import { runScheduledJob } from '@/lib/jobs/run-job';

/** Trigger.dev: the solvency run (lib/solvency/run-solvency.ts) each minute; a run that could not read a network fails. */
export const solvencyTask = schedules.task({
  id: 'solvency',
  cron: '* * * * *',
  maxDuration: 120,
  run: () => runScheduledJob('solvency'),
});
