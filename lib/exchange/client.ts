import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { keyHashOf, type ExchangeConfig } from './config';
import { ExchangeApiError, ExchangeError, ExchangeHttpError, ExchangeNoAnswerError, ExchangeRateLimitedError } from './errors';
import { cachedQuote } from './quote-cache';
import { signBody } from './sign';
import type { CreateParams, FfCurrency, FfOrder, FfPrice, PairParams } from './types';
import { recordRateLimited, reserveWeight } from './weight-budget';

export interface CallOptions {
  /** Longest wait for budget (queueing behind other callers or a 429 block) before ExchangeBusyError. */
  maxWaitMs?: number;
  /** Spend only while the window holds at most this much (background callers). */
  ceiling?: number;
  /** The weight of the first attempt was already taken (the tracker takes a batch at once). */
  prepaid?: boolean;
}

export interface ClientOptions {
  timeoutMs?: number;
  /** Read methods: attempts after a 5xx, a lost answer or a 429. */
  retries?: number;
  /** First back-off after a 429 without Retry-After; doubles per violation in a row. */
  backoffBaseMs?: number;
  fetch?: typeof fetch;
  /** The tenant this client spends for (its fair share); null or absent: system work. */
  tenantId?: string | null;
}

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The exact request body: `amount` goes out as a JSON number written from
 * its decimal string (never through a float), and the bytes signed are the bytes sent.
 */
export function encodeBody(params: Record<string, unknown>): string {
  const marker = '\u0000num:';
  const text = JSON.stringify(params, (k, v) => (k === 'amount' && typeof v === 'string' ? `${marker}${v}` : v));
  return text.replace(/"\\u0000num:([^"]*)"/g, (_m, digits: string) => {
    if (!DECIMAL.test(digits)) throw new Error(`amount is not a decimal: ${digits}`);
    return digits;
  });
}

/**
 * FixedFloat API v2 client: signed requests, the shared weight budget,
 * typed errors, back-off on 429 and retries of read methods. `create` is
 * sent once: whatever happens to its answer, it is never sent again here.
 */
export function createExchangeClient(db: Db, config: ExchangeConfig, opts: ClientOptions = {}) {
  const keyHash = keyHashOf(config);
  const doFetch = opts.fetch ?? fetch;
  const retries = opts.retries ?? 3;

  const budget = { limit: config.weightLimit, windowMs: config.windowMs, tenantShare: config.tenantShare, systemReserve: config.systemReserve };

  async function call<T>(method: string, params: Record<string, unknown>, co: CallOptions = {}): Promise<T> {
    const weight = method === 'create' ? 50 : 1;
    // The currency list is cached and shared by every tenant: system weight, never one tenant's share.
    const tenantId = method === 'ccies' ? null : (opts.tenantId ?? null);
    for (let attemptNo = 0; ; attemptNo++) {
      if (!(co.prepaid && attemptNo === 0))
        await reserveWeight(db, keyHash, weight, { ...budget, tenantId, ceiling: co.ceiling, maxWaitMs: co.maxWaitMs ?? 10_000 });
      let err: ExchangeError;
      try {
        return await once<T>(method, params);
      } catch (e) {
        if (!(e instanceof ExchangeError)) throw e;
        err = e;
      }
      if (method === 'create' || !err.retryable || attemptNo >= retries) throw err;
      log.warn('exchange call retried', { method, error: err.message, attempt: attemptNo + 1 });
      // A 429 block is waited out inside reserveWeight; other failures back off briefly.
      if (!(err instanceof ExchangeRateLimitedError)) await new Promise((r) => setTimeout(r, 200 * 2 ** attemptNo));
    }
  }

  async function once<T>(method: string, params: Record<string, unknown>): Promise<T> {
    const body = encodeBody(params);
    let res: Response;
    try {
      res = await doFetch(`${config.url}/api/v2/${method}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=UTF-8', 'X-API-KEY': config.apiKey, 'X-API-SIGN': signBody(config.apiSecret, body) },
        body,
        signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      });
    } catch (e) {
      throw new ExchangeNoAnswerError(method, (e as Error).name === 'TimeoutError' ? 'timeout' : 'connection failed');
    }
    if (res.status === 429) {
      await res.body?.cancel();
      const ra = Number(res.headers.get('retry-after'));
      const retryAt = await recordRateLimited(db, keyHash, {
        retryAfterMs: Number.isFinite(ra) && ra > 0 ? ra * 1000 : undefined,
        baseMs: opts.backoffBaseMs ?? 5_000,
        windowMs: config.windowMs,
      });
      log.warn('exchange rate limit hit; backing off', { method, until: retryAt.toISOString() });
      throw new ExchangeRateLimitedError(method, retryAt);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new ExchangeHttpError(res.status, method);
    }
    let json: { code?: unknown; msg?: unknown; data?: unknown };
    try {
      json = (await res.json()) as typeof json;
    } catch {
      throw new ExchangeNoAnswerError(method, 'unreadable body');
    }
    if (typeof json.code !== 'number') throw new ExchangeNoAnswerError(method, 'no code in the answer');
    if (json.code !== 0) throw new ExchangeApiError(json.code, String(json.msg ?? ''), method);
    return json.data as T;
  }

  return {
    keyHash,
    config,
    ccies: (co?: CallOptions) => call<FfCurrency[]>('ccies', {}, co),
    /** Identical quotes within a few seconds come from the cache at no weight (successful answers only). */
    price: (p: PairParams, co?: CallOptions) =>
      cachedQuote(`${keyHash}:${config.url}:${encodeBody({ ...p, usd: true })}`, config.quoteCacheMs ?? 3_000, () =>
        call<FfPrice>('price', { ...p, usd: true }, co),
      ),
    /** Sent once. ExchangeNoAnswerError here means the outcome is unknown: do not fund or re-create. */
    create: (p: CreateParams, co?: CallOptions) => call<FfOrder>('create', { ...p }, co),
    order: (id: string, token: string, co?: CallOptions) => call<FfOrder>('order', { id, token }, co),
    emergency: (p: { id: string; token: string; choice: 'EXCHANGE' | 'REFUND'; address?: string; tag?: string }, co?: CallOptions) =>
      call<boolean>('emergency', p, co),
  };
}
export type ExchangeClient = ReturnType<typeof createExchangeClient>;
