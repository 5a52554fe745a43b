import { isProduction } from '@/lib/env';
import { HSTS } from '@/lib/http/security-headers';
import { log } from '@/lib/log';
import { ApiError, errorBody } from './errors';

/** The JSON plumbing every API route shares: headers, bodies and error mapping (withApiKey, route()). */

export type RouteContext = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>;

export function baseHeaders(requestId: string): Headers {
  // Pages get theirs from proxy.ts; /v1 skips that hop and sets what a JSON API needs here.
  const h = new Headers({
    'X-Request-Id': requestId,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  if (isProduction()) h.set('Strict-Transport-Security', HSTS);
  return h;
}

export function jsonResponse(status: number, text: string, headers: Headers): Response {
  headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(text, { status, headers });
}

export function errorResponse(err: unknown, requestId: string, headers: Headers, context: Record<string, unknown> = {}): Response {
  let apiErr: ApiError;
  if (err instanceof ApiError) {
    apiErr = err;
  } else {
    // A 500 is a bug: log it with the request id, show nothing internal.
    log.error('unhandled error', { requestId, ...context, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    apiErr = new ApiError('internal_error', 'Internal server error. Quote the request id when contacting support.');
  }
  for (const [k, v] of Object.entries(apiErr.headers ?? {})) headers.set(k, v);
  return jsonResponse(apiErr.status, JSON.stringify(errorBody(apiErr, requestId)), headers);
}
