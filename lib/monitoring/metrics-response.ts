import { getDb } from '@/lib/db';
import { env } from '@/lib/env';
import { bearerMatches } from '@/lib/http/bearer';
import { collectMetrics } from './collect-metrics';

const text = (status: number, body: string, extra: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...extra } });

/**
 * GET /metrics: off (404) unless METRICS_TOKEN is set, then only with it as a bearer token (401 otherwise).
 * Prometheus text format (prom-client).
 */
export async function metricsResponse(req: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) return text(404, 'Not found\n');
  if (!bearerMatches(req, token)) return text(401, 'Unauthorized\n', { 'www-authenticate': 'Bearer' });
  return text(200, await collectMetrics(await getDb()), { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
}
