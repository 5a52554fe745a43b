import { newId } from '@/lib/ids';
import { observed } from '@/lib/metrics/observe-request';
import { readiness } from '@/lib/monitoring/readiness';

export const dynamic = 'force-dynamic';

/** Readiness probe (load balancers, Kubernetes): 200 when the database, migrations and every enabled network's RPC are fine, else 503. */
export const GET = observed('/api/ready', async () => {
  const r = await readiness();
  return Response.json(r, { status: r.ready ? 200 : 503, headers: { 'cache-control': 'no-store', 'x-request-id': newId('request') } });
});
