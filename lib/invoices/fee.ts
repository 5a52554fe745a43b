import { chargedFee, Decimal } from '@/lib/money';

/**
 * Fee of a settlement: amount × rate charged in cents, half-up (chargedFee: what the ledger, the API and the
 * screens show). The tenant is credited amount − fee, exactly what reaches the custody wallet; a payment's
 * sub-cent base units stay in the net.
 */
export function settlementFee(amount: Decimal.Value, rate: Decimal.Value) {
  const fee = chargedFee(new Decimal(amount).mul(rate));
  return { fee: fee.toFixed(), net: new Decimal(amount).sub(fee).toFixed() };
}
