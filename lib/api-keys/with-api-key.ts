import type { z } from 'zod';
import { ApiError, RetryLater, notFound } from '@/lib/api/errors';
import { assertReplayable, beginIdempotentRequest, isRetryLater, storableResponse } from '@/lib/api/idempotency';
import type { Operation } from '@/lib/api/operation';
import { fileResponse, type FileBody } from '@/lib/api/file-body';
import { parseJsonBody, parseQuery, readRawBody } from '@/lib/api/request';
import { baseHeaders, errorResponse, jsonResponse, type RouteContext, type RouteHandler } from '@/lib/api/response';
import { hasScope } from '@/lib/api/scopes';
import { renderingOf } from '@/lib/api/version-renderings';
import { API_VERSION_HEADER, parseApiVersion } from '@/lib/api/versions';
import { getAuthDb, getDb, type Db } from '@/lib/db';
import { env, isProduction } from '@/lib/env';
import { clientIp } from '@/lib/http/client-ip';
import { isId, newId } from '@/lib/ids';
import { observed } from '@/lib/metrics/observe-request';
import { authenticate, type AuthContext, type RateLimitState } from './authenticate';
import { failedAuthGuard } from './failed-auth-guard';
import { refusalMemo } from './refusal-memo';
import { KEY_FORMAT, hashKeySecret } from './secret';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface HandlerContext<B, Q> {
  req: Request;
  db: Db;
  auth: AuthContext;
  body: B;
  query: Q;
  params: Record<string, string>;
  requestId: string;
}

function assertHttps(req: Request) {
  if (!isProduction()) return;
  const forwarded = env().TRUST_PROXY ? req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const proto = forwarded ?? new URL(req.url).protocol.replace(':', '');
  if (proto !== 'https') throw new ApiError('https_required', 'The API is only served over HTTPS.');
}

function setRateLimitHeaders(h: Headers, rl: Pick<RateLimitState, 'limit' | 'remaining' | 'reset'>) {
  h.set('X-RateLimit-Limit', String(rl.limit));
  h.set('X-RateLimit-Remaining', String(rl.remaining));
  h.set('X-RateLimit-Reset', String(rl.reset));
}

async function resolveParams(op: Operation, ctx: RouteContext): Promise<Record<string, string>> {
  const raw = ctx?.params ? await ctx.params : {};
  const out: Record<string, string> = {};
  for (const [name, kind] of Object.entries(op.params ?? {})) {
    const value = raw[name];
    if (typeof value !== 'string' || !isId(kind, value)) throw notFound();
    out[name] = value;
  }
  return out;
}

/** Authentication behind the failed-auth guard: a blocked address's bad keys never reach the database. */
async function authenticateGuarded(req: Request) {
  const guard = failedAuthGuard();
  const address = clientIp(req.headers);
  const authorization = req.headers.get('authorization');
  await guard.check(address, authorization);
  try {
    const result = await authenticate(await getAuthDb(), authorization);
    guard.succeeded(authorization);
    return result;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'invalid_api_key') guard.failed(address);
    throw err;
  }
}

/**
 * The `/v1` wrapper: HTTPS, API key, rate limit, scope, body/query parsing,
 * idempotency, output schema, error mapping and request id, so that handlers
 * only call one domain function.
 */
export function withApiKey<B extends z.ZodType | undefined, Q extends z.ZodType | undefined, R extends z.ZodType>(
  op: Operation<B, Q, R>,
  handler: (ctx: HandlerContext<Infer<B>, Infer<Q>>) => Promise<z.input<R>>,
): RouteHandler {
  // Metrics, the request's log line and its trace span, by the operation's path template.
  return observed(op.path, async (req, routeCtx) => {
    const requestId = newId('request');
    const headers = baseHeaders(requestId);
    let keyHash: string | undefined;
    let keyLimit: RateLimitState | undefined;
    try {
      assertHttps(req);
      keyHash = presentedKeyHash(req.headers.get('authorization'));
      const held = refusalMemo().check(keyHash, op.id);
      if (held) {
        if (held.rateLimit) setRateLimitHeaders(headers, held.rateLimit);
        return errorResponse(held.refusal, requestId, headers, { op: op.id });
      }
      const db = await getDb();
      const { auth: keyAuth, rateLimit } = await authenticateGuarded(req);
      keyLimit = rateLimit;
      setRateLimitHeaders(headers, rateLimit);
      if (rateLimit.exceeded) {
        const refusal = new RetryLater('rate_limited', (s) => `Rate limit exceeded. Retry in ${s} seconds.`, rateLimit.retryAfter);
        refusalMemo().remember(keyHash, op.id, refusal, { wholeKey: true, rateLimit: { ...rateLimit, remaining: 0 } });
        return errorResponse(refusal, requestId, headers, { op: op.id });
      }
      const auth = withRequestVersion(keyAuth, req.headers.get(API_VERSION_HEADER));
      headers.set(API_VERSION_HEADER, auth.apiVersion);
      const render = renderingOf(auth.apiVersion).responses.get(op.id);
      if (op.scope && !hasScope(auth.scopes, op.scope)) {
        throw new ApiError('insufficient_scope', `This API key lacks the required scope "${op.scope}".`, [
          { path: 'scopes', message: `missing ${op.scope}` },
        ]);
      }
      if (op.testOnly && auth.mode !== 'test') throw notFound();
      const params = await resolveParams(op, routeCtx);
      const url = new URL(req.url);
      const query = parseQuery(url, op.query) as Infer<Q>;
      const rawBody = op.method === 'GET' ? '' : await readRawBody(req);

      const idemKey = op.method === 'POST' ? req.headers.get('idempotency-key') : null;
      const idem = idemKey === null ? null : await beginIdempotentRequest(db, auth, idemKey, { method: op.method, path: url.pathname, rawBody });
      if (idem?.kind === 'replay') {
        headers.set('Idempotent-Replayed', 'true');
        assertReplayable(op, idem);
        // Kept in the latest version's shape, rendered in this request's version like a first answer.
        const replayed = render && idem.status < 400 ? JSON.stringify(render(JSON.parse(idem.body))) : idem.body;
        return jsonResponse(idem.status, replayed, headers);
      }

      let status: number;
      let text: string;
      let answer: Record<string, unknown>;
      try {
        const body = parseJsonBody(req, rawBody, op.body) as Infer<B>;
        const result = await handler({ req, db, auth, body, query, params, requestId });
        if (op.produces) return fileResponse(result as FileBody, op.produces, headers);
        const parsed = op.response.safeParse(result);
        if (!parsed.success) throw new Error(`response of ${op.id} does not match its schema: ${parsed.error.message}`);
        status = op.status ?? 200;
        answer = parsed.data as Record<string, unknown>;
        text = JSON.stringify(answer);
      } catch (err) {
        if (!idem) throw err;
        rememberRefusal(keyHash, op.id, err, keyLimit);
        const res = errorResponse(err, requestId, headers, { op: op.id });
        if (isRetryLater(res.status)) await idem.release().catch(() => {});
        else await idem.finish(res.status, await res.clone().text());
        return res;
      }
      await idem?.finish(status, storableResponse(op, status, text));
      // An older version's body (lib/api/versions.ts): only operations a later version changed pay for it.
      return jsonResponse(status, render ? JSON.stringify(render(answer)) : text, headers);
    } catch (err) {
      rememberRefusal(keyHash, op.id, err, keyLimit);
      return errorResponse(err, requestId, headers, { op: op.id });
    }
  });
}

/** The key's or tenant's version, unless the request's Gateway-Version header names another (unknown: 400). */
function withRequestVersion(auth: AuthContext, header: string | null): AuthContext {
  if (header === null) return auth;
  return { ...auth, apiVersion: parseApiVersion(header), apiVersionSource: 'header' };
}

/** A handler's RetryLater: the key's next requests to this operation get the same answer from memory while it holds. */
function rememberRefusal(keyHash: string | undefined, opId: string, err: unknown, rateLimit: RateLimitState | undefined) {
  if (err instanceof RetryLater) refusalMemo().remember(keyHash, opId, err, { rateLimit });
}

/** The hash of the presented key, when it is one (the memo's key; nothing is looked up with it here). */
function presentedKeyHash(authorization: string | null): string | undefined {
  const secret = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return secret && KEY_FORMAT.test(secret) ? hashKeySecret(secret) : undefined;
}
