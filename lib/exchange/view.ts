import { Decimal } from '@/lib/money';
import type { FfOrder, FfPrice } from './types';

/** Unix seconds → `YYYY-MM-DD HH:MM:SS` (UTC), the spec's order time format. */
export function exchangeTime(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(Number(seconds))) return null;
  return new Date(Number(seconds) * 1000).toISOString().replace('T', ' ').slice(0, 19);
}

const dec = (v: unknown) => new Decimal(String(v)).toFixed();

/** The spec's Order record from the exchange's order. */
export function orderRecord(o: FfOrder) {
  const leg = (l: FfOrder['from']) => ({ code: l.code, amount: dec(l.amount), address: l.address, tag: l.tag ?? null });
  return {
    id: o.id,
    type: o.type,
    email: o.email || null,
    status: o.status,
    time: {
      reg: exchangeTime(o.time.reg)!,
      start: exchangeTime(o.time.start),
      finish: exchangeTime(o.time.finish),
      update: exchangeTime(o.time.update),
      expiration: exchangeTime(o.time.expiration),
    },
    from: leg(o.from),
    to: leg(o.to),
    emergency: o.status === 'EMERGENCY' && o.emergency ? { status: o.emergency.status, choice: o.emergency.choice } : null,
    token: o.token,
  };
}

/** The spec's Price quote record; min/max are the pair limits in the currency `direction` names. */
export function priceRecord(p: FfPrice, direction: 'from' | 'to') {
  const side = (s: FfPrice['from']) => ({ code: s.code, coin: s.coin, network: s.network, amount: dec(s.amount), rate: dec(s.rate) });
  const limits = direction === 'from' ? p.from : p.to;
  return { from: side(p.from), to: side(p.to), min: dec(limits.min), max: dec(limits.max), errors: p.errors ?? [] };
}

export const ok = <T>(data: T) => ({ code: 0 as const, msg: 'OK', data });
