import { ApiError } from './errors';
import { baseHeaders, errorResponse, type RouteHandler } from './response';
import { newId } from '@/lib/ids';
import { observed } from '@/lib/metrics/observe-request';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** Answers a method the path does not support with a JSON 405 and an Allow header. */
function methodNotAllowed(allowed: string[]): RouteHandler {
  return async () => {
    const requestId = newId('request');
    const headers = baseHeaders(requestId);
    headers.set('Allow', allowed.join(', '));
    return errorResponse(new ApiError('method_not_allowed', `Method not allowed. Allowed: ${allowed.join(', ')}.`), requestId, headers);
  };
}

/** Exports for a route file: the given handlers, and JSON 405s for every other method. */
export function route(handlers: Partial<Record<Method, RouteHandler>>): Record<Method, RouteHandler> {
  const allowed = Object.keys(handlers);
  const fallback = methodNotAllowed(allowed);
  return Object.fromEntries(METHODS.map((m) => [m, handlers[m] ?? fallback])) as Record<Method, RouteHandler>;
}

/** Unknown /v1 paths: JSON 404 for every method. */
export function unknownPath(): Record<Method, RouteHandler> {
  const handler: RouteHandler = observed('/v1/*', async () => {
    const requestId = newId('request');
    return errorResponse(new ApiError('not_found', 'No such endpoint. See /v1/openapi.json.'), requestId, baseHeaders(requestId));
  });
  return Object.fromEntries(METHODS.map((m) => [m, handler])) as Record<Method, RouteHandler>;
}
