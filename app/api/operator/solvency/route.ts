import { listOpenAlerts } from '@/lib/operator/list-alerts';
import { operatorRoute } from '@/lib/operator/operator-route';
import { latestSolvency } from '@/lib/solvency/latest-run';

export const dynamic = 'force-dynamic';

/** The console's solvency figures as JSON: latest run, its lines (with the addresses of "held"), history and open alerts. */
export const GET = operatorRoute('/api/operator/solvency', async (db, req) => {
  const runs = Number(new URL(req.url).searchParams.get('history') ?? 60);
  const view = await latestSolvency(db, { historyRuns: Number.isInteger(runs) && runs >= 1 && runs <= 1440 ? runs : 60 });
  const alerts = await listOpenAlerts(db);
  return { ...view, alerts };
});
