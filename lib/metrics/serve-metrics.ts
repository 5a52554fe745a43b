import { createServer, type Server } from 'node:http';
import { bearerMatches } from '@/lib/http/bearer';
import { processMetrics } from './registry';

/**
 * The worker's own /metrics (its job runs and webhook deliveries: counters live in the process that counts
 * them), on `port`, behind the same bearer token as the app's. The app's /metrics has the fleet-wide figures.
 */
export function serveProcessMetrics(port: number, token: string): Server {
  const server = createServer((req, res) => {
    const request = new Request(`http://localhost${req.url ?? '/'}`, { headers: req.headers as Record<string, string> });
    if (req.method !== 'GET' || new URL(request.url).pathname !== '/metrics') return void res.writeHead(404).end();
    if (!bearerMatches(request, token)) return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    const { registry } = processMetrics();
    registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  return server.listen(port);
}
