import { Decimal } from '@/lib/money';
import type { FfPrice } from './types';

/**
 * The exchange's fee in USDT, which FixedFloat folds into the rate: the
 * quote's USD values give the share lost (1 − to.usd / from.usd), applied to
 * what is sent. An estimate for display; what is debited is from.amount.
 */
export function exchangeFeeOf(quote: FfPrice, sent: Decimal): Decimal {
  const fromUsd = new Decimal(quote.from.usd ?? 0);
  const toUsd = new Decimal(quote.to.usd ?? 0);
  if (fromUsd.lte(0) || toUsd.lte(0) || toUsd.gte(fromUsd)) return new Decimal(0);
  return sent.times(new Decimal(1).minus(toUsd.div(fromUsd))).toDecimalPlaces(6, Decimal.ROUND_HALF_UP);
}
