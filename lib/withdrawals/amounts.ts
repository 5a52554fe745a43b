import { ApiError } from '@/lib/api/errors';
import { Decimal } from '@/lib/money';
import { MIN_WITHDRAWAL } from './schemas';

const DECIMAL = /^\d{1,12}(\.\d+)?$/;
const MAX_WITHDRAWAL = new Decimal('1000000000');

/** Parses a withdrawal amount: plain decimal, >= 0.01, at most 2 decimals after normalising. */
export function parseWithdrawalAmount(raw: string): Decimal {
  const invalid = (message: string) => new ApiError('invalid_amount', `amount: ${message}`, [{ path: 'amount', message }]);
  if (!DECIMAL.test(raw)) throw invalid('must be a decimal string such as "25.00" (no sign, exponent or spaces)');
  const d = new Decimal(raw);
  if (d.lt(MIN_WITHDRAWAL)) {
    throw new ApiError('amount_below_minimum', `amount: the minimum withdrawal is ${MIN_WITHDRAWAL} USDT`, [
      { path: 'amount', message: `must be at least ${MIN_WITHDRAWAL}` },
    ]);
  }
  if (d.decimalPlaces() > 2) throw invalid('must have at most 2 decimals');
  if (d.gt(MAX_WITHDRAWAL)) throw invalid('must be at most 1000000000');
  return d;
}

/** The fee charged on top: amount × rate, exact (2 + 6 decimals fit numeric(38,18)). */
export function withdrawalFee(amount: Decimal, rate: Decimal.Value): Decimal {
  return amount.times(rate);
}

/**
 * The spec's maximum: balance / (1 + rate) to two decimals. Rounded down so
 * that a withdrawal of exactly maxAmount always fits; estimatedFee = balance − maxAmount.
 */
export function maxWithdrawal(balance: Decimal.Value, rate: Decimal.Value) {
  const b = new Decimal(balance);
  const max = Decimal.max(0, b.div(new Decimal(1).plus(rate)).toDecimalPlaces(2, Decimal.ROUND_DOWN));
  return { maxAmount: max, estimatedFee: b.minus(max) };
}
