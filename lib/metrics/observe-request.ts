import { performance } from 'node:perf_hooks';
import { env } from '@/lib/env';
import { log } from '@/lib/log';
import { processMetrics } from './registry';
import { traced } from './tracing';

type Handler<C> = (req: Request, ctx: C) => Promise<Response>;

/**
 * Wraps a route handler: a trace span named after the route template (when tracing is on), the
 * gateway_http_* metrics by template and status, and one JSON log line per request with the request id
 * (the response's X-Request-Id), method, template, status and duration. Never the URL's query, headers or
 * body: an Authorization header or a secret in a body cannot reach the log this way. In development the
 * line is written at debug (the dashboard's polls would flood `npm run dev`).
 */
export function observed<C>(route: string, handler: Handler<C>): Handler<C> {
  return async (req, ctx) => {
    const started = performance.now();
    const method = req.method;
    let status = 500;
    let requestId: string | null = null;
    try {
      const res = await traced(`${method} ${route}`, { 'http.route': route, 'http.request.method': method }, () => handler(req, ctx));
      status = res.status;
      requestId = res.headers.get('x-request-id');
      return res;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      const labels = { route, method, status: String(status) };
      const m = processMetrics();
      m.httpRequests.inc(labels);
      m.httpDuration.observe(labels, seconds);
      const fields = { requestId, method, route, status, durationMs: Math.round(seconds * 1000) };
      if (development()) log.debug('request', fields);
      else log.info('request', fields);
    }
  };
}

let dev: boolean | undefined;
function development(): boolean {
  if (dev === undefined) {
    try {
      dev = env().APP_ENV === 'development';
    } catch {
      dev = false;
    }
  }
  return dev;
}
