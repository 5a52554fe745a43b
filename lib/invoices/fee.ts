import { Decimal } from '@/lib/money';

/**
 * Fee of a settlement: amount × rate, rounded UP to the token's decimals
 * (18 for USDT BEP-20), so any fraction of a base unit goes to the gateway.
 * The tenant is credited amount − fee, exactly what reaches the custody wallet.
 */
export function settlementFee(amount: Decimal.Value, rate: Decimal.Value, decimals: number) {
  const fee = new Decimal(amount).mul(rate).toDecimalPlaces(decimals, Decimal.ROUND_UP);
  return { fee: fee.toFixed(), net: new Decimal(amount).sub(fee).toFixed() };
}
