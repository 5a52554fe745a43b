import { Decimal } from './decimal';
import { LIMIT_MAX_USD, LIMIT_MIN_USD, SIM_CURRENCY_BY_CODE, type SimCurrency } from './currencies';

export type PriceError =
  'MAINTENANCE_FROM' | 'MAINTENANCE_TO' | 'OFFLINE_FROM' | 'OFFLINE_TO' | 'RESERVE_FROM' | 'RESERVE_TO' | 'LIMIT_MIN' | 'LIMIT_MAX';

export interface PriceInput {
  type: 'fixed' | 'float';
  fromCcy: string;
  toCcy: string;
  direction: 'from' | 'to';
  amount: string;
}

/** Service fee kept in the rate: fixed rates cost more than float ones, as at FixedFloat. */
const FEE = { fixed: new Decimal('0.01'), float: new Decimal('0.005') };
/** The to-side network fee, in USD, taken from what is sent out. */
const NETWORK_FEE_USD = new Decimal('0.30');

export interface Side {
  code: string;
  network: string;
  coin: string;
  amount: string;
  rate: string;
  precision: number;
  min: string;
  max: string;
  usd: string;
}

const round = (d: Decimal, p: number, up = false) => d.toDecimalPlaces(p, up ? Decimal.ROUND_UP : Decimal.ROUND_DOWN);

/**
 * A quote as FixedFloat's `price` answers it: both sides with amount, rate
 * (units of the other side per unit), min and max, and the reasons the pair
 * cannot be exchanged now. Prices are constant so tests are deterministic.
 */
export function quote(input: PriceInput): { from: Side; to: Side; errors: PriceError[] } | { unknown: string } {
  const from = SIM_CURRENCY_BY_CODE.get(input.fromCcy);
  const to = SIM_CURRENCY_BY_CODE.get(input.toCcy);
  if (!from) return { unknown: input.fromCcy };
  if (!to) return { unknown: input.toCcy };
  const fee = FEE[input.type];
  const fromUsd = new Decimal(from.usd);
  const toUsd = new Decimal(to.usd);
  // One unit of `from` buys this much `to` after the service fee.
  const rate = fromUsd.div(toUsd).times(new Decimal(1).minus(fee));
  const netFeeTo = NETWORK_FEE_USD.div(toUsd);
  const amount = new Decimal(input.amount);
  let fromAmount: Decimal;
  let toAmount: Decimal;
  if (input.direction === 'from') {
    fromAmount = round(amount, from.precision);
    toAmount = Decimal.max(0, round(fromAmount.times(rate).minus(netFeeTo), to.precision));
  } else {
    toAmount = round(amount, to.precision);
    fromAmount = round(toAmount.plus(netFeeTo).div(rate), from.precision, true);
  }
  const minUsd = new Decimal(LIMIT_MIN_USD);
  const maxUsd = new Decimal(LIMIT_MAX_USD);
  const fromMin = round(minUsd.div(fromUsd), from.precision, true);
  const fromMax = round(maxUsd.div(fromUsd), from.precision);
  const toMin = round(fromMin.times(rate).minus(netFeeTo), to.precision, true);
  const toMax = round(fromMax.times(rate).minus(netFeeTo), to.precision);
  const errors: PriceError[] = [];
  if (from.maintenance) errors.push('MAINTENANCE_FROM');
  else if (!from.send) errors.push('OFFLINE_FROM');
  if (to.maintenance) errors.push('MAINTENANCE_TO');
  else if (!to.recv) errors.push('OFFLINE_TO');
  if (fromAmount.lt(fromMin)) errors.push('LIMIT_MIN');
  if (fromAmount.gt(fromMax)) errors.push('LIMIT_MAX');
  const side = (c: SimCurrency, amt: Decimal, r: Decimal, min: Decimal, max: Decimal, usd: Decimal): Side => ({
    code: c.code,
    network: c.network,
    coin: c.coin,
    amount: amt.toFixed(),
    rate: r.toSignificantDigits(12).toFixed(),
    precision: c.precision,
    min: min.toFixed(),
    max: max.toFixed(),
    usd: usd.toDecimalPlaces(2).toFixed(),
  });
  return {
    from: side(from, fromAmount, rate, fromMin, fromMax, fromAmount.times(fromUsd)),
    to: side(to, toAmount, rate.isZero() ? rate : new Decimal(1).div(rate), toMin, toMax, toAmount.times(toUsd)),
    errors,
  };
}
