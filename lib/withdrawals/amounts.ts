import { ApiError } from '@/lib/api/errors';
import { chargedFee, Decimal } from '@/lib/money';
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

/**
 * The fee charged below Max: amount × rate in cents, half-up (chargedFee), plus the network's flat fee. The
 * one place a withdrawal's or refund's fee is priced: withdrawalDebitSql debits what it returns.
 */
export function withdrawalFee(amount: Decimal, rate: Decimal.Value, networkFee: Decimal.Value): Decimal {
  return chargedFee(amount.times(rate)).plus(networkFee);
}

/**
 * The spec's maximum, extended by the network's flat fee F: (balance − F) / (1 + rate) rounded to the
 * nearest cent (half up), never above the whole cents of balance − F, never below 0; estimatedFee =
 * balance − maxAmount. With F = 0 this is the spec's formula exactly. A withdrawal of exactly maxAmount
 * is charged that fee, so it empties the balance (withdrawalDebitSql decides the same on the locked
 * balance row, in SQL).
 */
export function maxWithdrawal(balance: Decimal.Value, rate: Decimal.Value, networkFee: Decimal.Value) {
  const b = new Decimal(balance);
  const spendable = b.minus(networkFee);
  const nearest = spendable.div(new Decimal(1).plus(rate)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const max = Decimal.max(0, Decimal.min(nearest, spendable.toDecimalPlaces(2, Decimal.ROUND_DOWN)));
  return { maxAmount: max, estimatedFee: b.minus(max) };
}

/** The fee a withdrawal of `amount` would be charged on `balance` (the dashboard's preview). */
export function quotedWithdrawalFee(amount: Decimal, balance: Decimal.Value, rate: Decimal.Value, networkFee: Decimal.Value): Decimal {
  const { maxAmount, estimatedFee } = maxWithdrawal(balance, rate, networkFee);
  return amount.eq(maxAmount) ? estimatedFee : withdrawalFee(amount, rate, networkFee);
}
