import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimChainOptions } from './chain';
import { createSimRails, type SimRailOptions } from './rails';
import { fakeAddress } from './addresses';
import { tickOrders, type LifecycleOptions } from './lifecycle';
import { createRateLimiter, type LimitOptions } from './rate-limit';
import { applyDeposit, buildOrder, orderJson, type CreateInput, type SimOrder } from './orders';
import { handleMethod } from './methods';
import { newSimFiatRates } from './fiat-rates';

export interface SimOptions {
  port?: number;
  /** API key → secret. */
  keys?: Record<string, string>;
  limit?: Partial<LimitOptions>;
  /** Unpaid orders expire after this long. */
  ttlMs?: number;
  lifecycle?: Partial<LifecycleOptions>;
  tickMs?: number;
  /** The local test chain: USDTBSC deposits are detected on it and USDTBSC payouts are real transfers. */
  chain?: SimChainOptions & { reqConfirmations?: number };
  /**
   * On-chain currencies by exchange code (USDC, USDTPOLY, ...; USDTBSC too, instead of `chain`):
   * each one's deposits are detected and its payouts sent on its own chain and token.
   */
  rails?: Record<string, SimRailOptions>;
  /** Codes left out of `ccies` and unknown to price and create, as if the exchange did not list them (mutable: `sim.unlisted`). */
  unlisted?: string[];
  log?: (msg: string) => void;
}

export const SIM_DEFAULT_KEY = 'sim_key_dev';
export const SIM_DEFAULT_SECRET = 'sim_secret_dev_0123456789abcdef';
export const WEIGHT = (method: string) => (method === 'create' ? 50 : 1);

/**
 * A FixedFloat API v2 compatible exchange on 127.0.0.1 (`npm run exchange:sim`,
 * and in-process in tests and benches). Control endpoints under /control
 * stand in for the customer: a deposit of an off-chain coin, order and limiter inspection.
 * GET /rates/fiat serves fiat rates (FixedFloat has none; see lib/fiat-rates).
 */
export async function startExchangeSim(opts: SimOptions = {}) {
  const keys = opts.keys ?? { [SIM_DEFAULT_KEY]: SIM_DEFAULT_SECRET };
  const limiter = createRateLimiter({ limit: 250, windowMs: 60_000, blockMs: 5_000, ...opts.limit });
  const lifecycle: LifecycleOptions = { confirmMs: 1_000, exchangeMs: 1_000, withdrawMs: 1_000, ...opts.lifecycle };
  const ttlMs = opts.ttlMs ?? 30 * 60_000;
  const log = opts.log ?? ((m: string) => console.log(`[exchange-sim] ${m}`));
  // `chain` is the USDTBSC rail of the single-chain configuration (npm run exchange:sim, benches).
  const rails = createSimRails({ ...(opts.chain ? { USDTBSC: opts.chain } : {}), ...opts.rails });
  const chain = rails.get('USDTBSC') ?? null;
  const unlisted = new Set(opts.unlisted ?? []);
  const orders = new Map<string, SimOrder>();
  const fiat = newSimFiatRates();

  const create = (input: CreateInput, apiKey: string) => {
    const built = buildOrder(input, {
      apiKey,
      now: Date.now(),
      ttlMs,
      reqConfirmations: (code) => rails.get(code)?.reqConfirmations ?? 1,
      depositAddress: (c) => rails.get(c.code)?.newDepositAddress() ?? fakeAddress(c),
    });
    if ('id' in built) orders.set(built.id, built);
    return built;
  };

  const deposit = (id: string, amount?: string) => {
    const o = orders.get(id);
    if (!o) return { error: 'Order not found' };
    if (rails.has(o.from.code)) return { error: `${o.from.code} orders are paid on the local chain` };
    applyDeposit(o, amount ?? o.from.amount, `simtx_${o.id}_${Date.now()}`, Date.now(), 0);
    if (o.status === 'PENDING') o.stepAt = Date.now() + lifecycle.confirmMs;
    return { order: orderJson(o, Date.now()) };
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((err) => {
      log(`internal error: ${String((err as Error).stack ?? err)}`);
      send(res, 500, { code: 500, msg: 'Internal error', data: null });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const raw = await readBody(req);
    const api = /^\/api\/v2\/([a-zA-Z]+)$/.exec(url.pathname);
    if (api) {
      if (req.method !== 'POST') return send(res, 405, { code: 405, msg: 'Method not allowed', data: null });
      const method = api[1]!;
      const apiKey = String(req.headers['x-api-key'] ?? '');
      const secret = keys[apiKey];
      if (!secret) return send(res, 200, { code: 100, msg: 'Invalid API key', data: null });
      const expected = createHmac('sha256', secret).update(raw).digest('hex');
      const given = String(req.headers['x-api-sign'] ?? '').toLowerCase();
      if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
        return send(res, 200, { code: 101, msg: 'Invalid signature', data: null });
      }
      const admitted = limiter.admit(apiKey, WEIGHT(method));
      if (!admitted.ok) return send(res, 429, { code: 429, msg: 'Too many requests', data: null });
      let params: Record<string, unknown>;
      try {
        params = JSON.parse(raw.toString('utf8') || 'null');
        if (!params || typeof params !== 'object' || Array.isArray(params)) throw new Error('not an object');
      } catch {
        return send(res, 200, { code: 102, msg: 'Invalid JSON body', data: null });
      }
      const answer = handleMethod(method, params, { apiKey, orders, create, now: Date.now(), unlisted });
      return send(res, answer.http ?? 200, { code: answer.code, msg: answer.msg, data: answer.data ?? null });
    }
    const dep = /^\/control\/orders\/([A-Z0-9]+)\/deposit$/.exec(url.pathname);
    if (dep && req.method === 'POST') {
      const body = raw.length ? (JSON.parse(raw.toString('utf8')) as { amount?: string | number }) : {};
      const r = deposit(dep[1]!, body.amount === undefined ? undefined : String(body.amount));
      return 'error' in r ? send(res, 400, { error: r.error }) : send(res, 200, r.order);
    }
    const get = /^\/control\/orders\/([A-Z0-9]+)$/.exec(url.pathname);
    if (get && req.method === 'GET') {
      const o = orders.get(get[1]!);
      return o ? send(res, 200, orderJson(o, Date.now())) : send(res, 404, { error: 'Order not found' });
    }
    if (url.pathname === '/rates/fiat' && req.method === 'GET')
      return fiat.down
        ? send(res, 500, { error: 'fiat rates are down (control)' })
        : send(res, 200, { source: 'exchange-sim', base: 'USDT', rates: fiat.rates, at: new Date().toISOString() });
    if (url.pathname === '/control/fiat-rates' && req.method === 'POST') {
      const body = raw.length ? (JSON.parse(raw.toString('utf8')) as { down?: boolean; rates?: Record<string, string> }) : {};
      if (body.down !== undefined) fiat.down = body.down;
      if (body.rates) Object.assign(fiat.rates, body.rates);
      return send(res, 200, fiat);
    }
    if (url.pathname === '/control/stats')
      return send(res, 200, { ...limiter.stats(), maxWindowWeight: limiter.maxWindowWeight(), orders: orders.size });
    if (url.pathname === '/health') return send(res, 200, { ok: true });
    return send(res, 404, { code: 404, msg: 'Not found', data: null });
  }

  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    tickOrders(orders, rails, lifecycle, log)
      .catch((err) => log(`tick failed: ${String((err as Error).message).split('\n')[0]}`))
      .finally(() => (ticking = false));
  }, opts.tickMs ?? 250);

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    keys,
    orders,
    limiter,
    /** The USDTBSC rail (null without one); `rails` has every on-chain currency. */
    chain,
    rails,
    /** Codes hidden from the currency list (add one, then clear the gateway's currency cache). */
    unlisted,
    /** GET /rates/fiat's answer: set `down` to make it fail, change `rates` to move a price. */
    fiat,
    /** In-process: create an order without a request (benches seed thousands this way). */
    createOrder: create,
    deposit,
    async stop() {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
export type ExchangeSim = Awaited<ReturnType<typeof startExchangeSim>>;

function send(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 65_536) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}
