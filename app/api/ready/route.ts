import { env } from '@/lib/env';
import { bearerMatches } from '@/lib/http/bearer';
import { clientIp } from '@/lib/http/client-ip';
import { newId } from '@/lib/ids';
import { observed } from '@/lib/metrics/observe-request';
import { readyFigures } from '@/lib/monitoring/ready-figures';

export const dynamic = 'force-dynamic';

/**
 * Readiness probe (load balancers, Kubernetes): 200 when the database, migrations and every enabled network's RPC are fine, else 503.
 * Public, so its figures are shared for a few seconds and anonymous callers are limited per address (lib/monitoring/ready-figures.ts);
 * the operator token is not limited.
 */
export const GET = observed('/api/ready', async (req: Request) => {
  const headers = { 'cache-control': 'no-store', 'x-request-id': newId('request') };
  const out = await readyFigures(clientIp(req.headers), bearerMatches(req, env().OPERATOR_TOKEN));
  if ('retryAfter' in out)
    return Response.json(
      { code: 'rate_limited', message: `Too many readiness requests from your address; try again in ${out.retryAfter} seconds.` },
      { status: 429, headers: { ...headers, 'Retry-After': String(out.retryAfter) } },
    );
  const r = out.figures;
  return Response.json(r, { status: r.ready ? 200 : 503, headers });
});
