import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { BlockList } from 'node:net';
import { resolveTarget, TargetRefusedError } from './resolve-target';

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_LIMIT = 4096;

export interface SendInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs?: number;
  /** SSRF allow-list; defaults to WEBHOOK_ALLOW_PRIVATE_HOSTS. */
  allow?: BlockList;
}

export interface SendOutcome {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  retryAfter: string | null;
}

// Keep-alive pools: sockets idle longer than 4 s are dropped before typical 5 s server timeouts close them under us.
const agents = {
  http: new http.Agent({ keepAlive: true, timeout: 4_000, maxFreeSockets: 256 }),
  https: new https.Agent({ keepAlive: true, timeout: 4_000, maxFreeSockets: 256 }),
};

/**
 * One attempt: vet the target (SSRF guard), POST to the vetted address only,
 * follow no redirect, give up after the timeout, keep 4 KB of the answer.
 * Never throws: every failure is an outcome.
 */
export async function sendWebhook(input: SendInput): Promise<SendOutcome> {
  const started = performance.now();
  const done = (o: Omit<SendOutcome, 'durationMs' | 'ok'>): SendOutcome => ({
    ...o,
    ok: o.status !== null && o.status >= 200 && o.status < 300 && o.error === null,
    durationMs: Math.round(performance.now() - started),
  });
  let target;
  try {
    target = await resolveTarget(input.url, input.allow);
  } catch (err) {
    const msg = err instanceof TargetRefusedError ? err.message : 'target check failed';
    return done({ status: null, error: msg, responseBody: null, retryAfter: null });
  }
  const { address, family, url } = target;
  // Connect to the address that passed the guard: no second DNS answer can redirect us.
  const pinned: LookupFunction = (_host, options, cb) => {
    if (options.all) (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else cb(null, address, family);
  };
  const isHttps = url.protocol === 'https:';
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (o: Omit<SendOutcome, 'durationMs' | 'ok'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(o));
    };
    const req = (isHttps ? https : http).request(
      url,
      {
        method: 'POST',
        agent: isHttps ? agents.https : agents.http,
        lookup: pinned,
        headers: { ...input.headers, 'Content-Length': String(Buffer.byteLength(input.body)) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const retryAfter = (res.headers['retry-after'] as string | undefined) ?? null;
        const chunks: Buffer[] = [];
        let size = 0;
        const complete = () => {
          const responseBody = Buffer.concat(chunks)
            .subarray(0, RESPONSE_BODY_LIMIT)
            .toString('utf8')
            .replace(/\u0000/g, '');
          const error = status >= 300 && status < 400 ? `redirect not followed (${status})` : null;
          finish({ status, error, responseBody, retryAfter });
        };
        res.on('data', (c: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(c);
          size += c.length;
          // Enough kept: stop reading a large body rather than wait for it.
          if (size >= RESPONSE_BODY_LIMIT) {
            complete();
            res.destroy();
          }
        });
        res.on('end', complete);
        res.on('error', () => complete());
      },
    );
    const timeoutMs = input.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      finish({ status: null, error: `timed out after ${timeoutMs} ms`, responseBody: null, retryAfter: null });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      finish({ status: null, error: `connection failed: ${err.code ?? err.message}`, responseBody: null, retryAfter: null });
    });
    req.end(input.body);
  });
}
