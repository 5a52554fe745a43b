import { SIM_CURRENCIES } from './currencies';
import { continueAtMarket, orderJson, type CreateInput, type SimOrder } from './orders';
import { quote } from './pricing';

export interface MethodContext {
  apiKey: string;
  orders: Map<string, SimOrder>;
  create: (input: CreateInput, apiKey: string) => SimOrder | { error: string; code: number };
  now: number;
  /** Codes the exchange does not list (tests of an unlisted rail). */
  unlisted?: ReadonlySet<string>;
}

interface Answer {
  code: number;
  msg: string;
  data?: unknown;
  http?: number;
}

const ok = (data: unknown): Answer => ({ code: 0, msg: 'OK', data });
const bad = (msg: string): Answer => ({ code: 301, msg });

function pairInput(p: Record<string, unknown>): CreateInput | Answer {
  if (p.type !== 'fixed' && p.type !== 'float') return bad('Invalid parameter: type');
  if (typeof p.fromCcy !== 'string' || !p.fromCcy) return bad('Invalid parameter: fromCcy');
  if (typeof p.toCcy !== 'string' || !p.toCcy) return bad('Invalid parameter: toCcy');
  if (p.direction !== 'from' && p.direction !== 'to') return bad('Invalid parameter: direction');
  const amount = typeof p.amount === 'number' ? p.amount : typeof p.amount === 'string' ? Number(p.amount) : NaN;
  if (!Number.isFinite(amount) || amount <= 0) return bad('Invalid parameter: amount');
  return {
    type: p.type,
    fromCcy: p.fromCcy,
    toCcy: p.toCcy,
    direction: p.direction,
    amount: String(p.amount),
    toAddress: String(p.toAddress ?? ''),
    tag: typeof p.tag === 'string' ? p.tag : null,
  };
}

const unlistedOf = (i: CreateInput, ctx: MethodContext) => [i.fromCcy, i.toCcy].find((c) => ctx.unlisted?.has(c));

function findOrder(p: Record<string, unknown>, ctx: MethodContext): SimOrder | Answer {
  const o = typeof p.id === 'string' ? ctx.orders.get(p.id) : undefined;
  if (!o || o.token !== p.token) return { code: 401, msg: 'Order not found' };
  return o;
}

/** The FixedFloat API v2 methods. */
export function handleMethod(method: string, p: Record<string, unknown>, ctx: MethodContext): Answer {
  switch (method) {
    case 'ccies':
      return ok(
        SIM_CURRENCIES.filter((c) => !ctx.unlisted?.has(c.code)).map((c, i) => ({
          code: c.code,
          coin: c.coin,
          network: c.network,
          name: c.name,
          recv: c.recv,
          send: c.send,
          tag: c.tag,
          logo: `https://fixedfloat.com/assets/images/coins/svg/${c.coin.toLowerCase()}.svg`,
          color: '#26a17b',
          priority: SIM_CURRENCIES.length - i,
        })),
      );
    case 'price': {
      const input = pairInput(p);
      if ('code' in input) return input;
      if (unlistedOf(input, ctx)) return { code: 311, msg: `Currency not found: ${unlistedOf(input, ctx)}` };
      const q = quote(input);
      if ('unknown' in q) return { code: 311, msg: `Currency not found: ${q.unknown}` };
      return ok({ from: q.from, to: q.to, errors: q.errors });
    }
    case 'create': {
      const input = pairInput(p);
      if ('code' in input) return input;
      if (!input.toAddress) return bad('Invalid parameter: toAddress');
      if (unlistedOf(input, ctx)) return { code: 311, msg: `Currency not found: ${unlistedOf(input, ctx)}` };
      const built = ctx.create(input, ctx.apiKey);
      if ('error' in built) return { code: built.code, msg: built.error };
      return ok(orderJson(built, ctx.now));
    }
    case 'order': {
      const o = findOrder(p, ctx);
      return 'code' in o ? o : ok(orderJson(o, ctx.now));
    }
    case 'emergency': {
      const o = findOrder(p, ctx);
      if ('code' in o) return o;
      if (o.status !== 'EMERGENCY') return { code: 402, msg: 'Order is not in EMERGENCY' };
      if (p.choice === 'EXCHANGE') {
        continueAtMarket(o, ctx.now);
      } else if (p.choice === 'REFUND') {
        if (typeof p.address !== 'string' || !p.address) return bad('Invalid parameter: address');
        o.emergency.choice = 'REFUND';
        o.back = { ...o.back, amount: o.received, address: p.address, tag: typeof p.tag === 'string' ? p.tag : null };
        o.status = 'DONE';
        o.times.finish = ctx.now;
        o.times.update = ctx.now;
      } else {
        return bad('Invalid parameter: choice');
      }
      return ok(true);
    }
    case 'setEmail': {
      const o = findOrder(p, ctx);
      if ('code' in o) return o;
      o.email = String(p.email ?? '');
      return ok(true);
    }
    case 'qr': {
      const o = findOrder(p, ctx);
      return 'code' in o ? o : ok([{ title: 'Address', src: '', checked: true }]);
    }
    default:
      return { code: 404, msg: `Unknown method: ${method}`, http: 404 };
  }
}
