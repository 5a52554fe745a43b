import { randomBytes } from 'node:crypto';
import { Decimal } from './decimal';
import { SIM_CURRENCY_BY_CODE, type SimCurrency } from './currencies';
import { quote, type PriceInput } from './pricing';

export type SimStatus = 'NEW' | 'PENDING' | 'EXCHANGE' | 'WITHDRAW' | 'DONE' | 'EXPIRED' | 'EMERGENCY';

export interface SimTx {
  id: string | null;
  amount: string | null;
  fee: string | null;
  ccyfee: string | null;
  timeReg: number | null;
  timeBlock: number | null;
  confirmations: number | null;
}

export interface SimLeg {
  code: string;
  coin: string;
  network: string;
  name: string;
  alias: string;
  amount: string;
  address: string;
  tag: string | null;
  tagName: string | null;
  addressMix: string;
  reqConfirmations: number;
  maxConfirmations: number;
  tx: SimTx;
}

/** An order as the simulator keeps it: the FixedFloat shape plus internal timers (ms). */
export interface SimOrder {
  id: string;
  token: string;
  apiKey: string;
  type: 'fixed' | 'float';
  email: string;
  status: SimStatus;
  times: { reg: number; start: number | null; finish: number | null; update: number; expiration: number };
  from: SimLeg;
  to: SimLeg;
  back: SimLeg;
  emergency: { status: ('EXPIRED' | 'LESS' | 'MORE' | 'LIMIT')[]; choice: 'NONE' | 'EXCHANGE' | 'REFUND'; repeat: string };
  received: string;
  /** Block of the first on-chain deposit (orders paid in an on-chain rail). */
  depositBlock: bigint | null;
  /** When the current step ends (PENDING for off-chain coins, EXCHANGE, WITHDRAW). */
  stepAt: number;
  payoutHash: string | null;
}

const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const rand = (n: number, alphabet = ID_ALPHABET) => [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
const emptyTx = (): SimTx => ({ id: null, amount: null, fee: null, ccyfee: null, timeReg: null, timeBlock: null, confirmations: null });

function leg(c: SimCurrency, amount: string, address: string, tag: string | null, reqConfirmations = 1): SimLeg {
  return {
    code: c.code,
    coin: c.coin,
    network: c.network,
    name: c.name,
    alias: c.coin.toLowerCase(),
    amount,
    address,
    tag,
    tagName: c.tag,
    addressMix: address,
    reqConfirmations,
    maxConfirmations: reqConfirmations * 3,
    tx: emptyTx(),
  };
}

export interface CreateInput extends PriceInput {
  toAddress: string;
  tag?: string | null;
}

/** Builds a NEW order from a create request, or the reason it cannot be created (the create method's error). */
export function buildOrder(
  input: CreateInput,
  opts: { apiKey: string; now: number; ttlMs: number; depositAddress: (c: SimCurrency) => string; reqConfirmations: (code: string) => number },
): SimOrder | { error: string; code: number } {
  const q = quote(input);
  if ('unknown' in q) return { code: 311, error: `Currency not found: ${q.unknown}` };
  if (q.errors.some((e) => e.startsWith('MAINTENANCE') || e.startsWith('OFFLINE') || e.startsWith('RESERVE'))) {
    return { code: 312, error: `Currency unavailable: ${q.errors.join(', ')}` };
  }
  if (q.errors.length > 0)
    return { code: 313, error: `Amount out of limits (${q.errors.join(', ')}): min ${q.from.min}, max ${q.from.max} ${q.from.code}` };
  const from = SIM_CURRENCY_BY_CODE.get(input.fromCcy)!;
  const to = SIM_CURRENCY_BY_CODE.get(input.toCcy)!;
  if (!validAddress(to, input.toAddress)) return { code: 320, error: `Invalid address for ${to.code}` };
  const depositTag = from.tag ? rand(9, '0123456789') : null;
  return {
    id: rand(6),
    token: rand(40, 'abcdefghijklmnopqrstuvwxyz0123456789'),
    apiKey: opts.apiKey,
    type: input.type,
    email: '',
    status: 'NEW',
    times: { reg: opts.now, start: null, finish: null, update: opts.now, expiration: opts.now + opts.ttlMs },
    from: leg(from, q.from.amount, opts.depositAddress(from), depositTag, opts.reqConfirmations(from.code)),
    to: leg(to, q.to.amount, input.toAddress, input.tag ?? null),
    back: leg(from, '0', '', null),
    emergency: { status: [], choice: 'NONE', repeat: '0' },
    received: '0',
    depositBlock: null,
    stepAt: 0,
    payoutHash: null,
  };
}

function validAddress(c: SimCurrency, address: string): boolean {
  if (c.addr === 'evm') return /^0x[0-9a-fA-F]{40}$/.test(address);
  return address.length >= 20 && address.length <= 120 && /^[0-9A-Za-z:_-]+$/.test(address);
}

/**
 * The customer's deposit (or ours, for orders paid in an on-chain rail): moves NEW to
 * PENDING, or to EMERGENCY when it is late or, on a fixed order, not the
 * agreed amount. Float orders are re-priced for what arrived.
 */
export function applyDeposit(o: SimOrder, amount: string, txId: string, now: number, confirmations = 0) {
  const received = new Decimal(o.received).plus(amount);
  o.received = received.toFixed();
  o.from.tx = { id: txId, amount: received.toFixed(), fee: '0', ccyfee: '0', timeReg: Math.floor(now / 1000), timeBlock: null, confirmations };
  o.times.update = now;
  if (o.status === 'EXPIRED') {
    o.status = 'EMERGENCY';
    o.emergency.status = ['EXPIRED'];
    return;
  }
  if (o.status !== 'NEW') return;
  o.times.start = now;
  if (received.lt(o.from.amount)) {
    o.status = 'EMERGENCY';
    o.emergency.status = ['LESS'];
    return;
  }
  if (o.type === 'fixed' && received.gt(o.from.amount)) {
    o.status = 'EMERGENCY';
    o.emergency.status = ['MORE'];
    return;
  }
  o.status = 'PENDING';
}

/** Emergency choice EXCHANGE: go on at the market rate for what arrived. */
export function continueAtMarket(o: SimOrder, now: number) {
  const q = quote({ type: 'float', fromCcy: o.from.code, toCcy: o.to.code, direction: 'from', amount: o.received });
  if (!('unknown' in q)) o.to.amount = q.to.amount;
  o.emergency.choice = 'EXCHANGE';
  o.status = 'EXCHANGE';
  o.stepAt = now;
  o.times.update = now;
}

/** The order as the `create` and `order` methods return it (times in Unix seconds). */
export function orderJson(o: SimOrder, now: number) {
  const s = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));
  const strip = (l: SimLeg) => ({ ...l });
  return {
    id: o.id,
    type: o.type,
    email: o.email,
    status: o.status,
    time: {
      reg: s(o.times.reg),
      start: s(o.times.start),
      finish: s(o.times.finish),
      update: s(o.times.update),
      expiration: s(o.times.expiration),
      left: Math.max(0, Math.floor((o.times.expiration - now) / 1000)),
    },
    from: strip(o.from),
    to: strip(o.to),
    back: strip(o.back),
    emergency: o.emergency,
    token: o.token,
  };
}
