import Decimal from 'decimal.js';

// Enough precision for 38-digit numerics; never round silently.
Decimal.set({ precision: 60, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 60 });

export { Decimal };

/** Wire amounts: two decimals fixed ("10.00"). */
export function usdt(value: Decimal.Value): string {
  return new Decimal(value).toFixed(2, Decimal.ROUND_DOWN);
}

/** Amounts on the wire: exact, no exponent, at least two decimals ("10.00", "0.01845"). */
export function formatAmount(value: Decimal.Value): string {
  const d = new Decimal(value);
  return d.decimalPlaces() <= 2 ? d.toFixed(2) : d.toFixed();
}

/**
 * A fee as charged: rounded half-up to the asset's display minor unit (cents: USDT and USDC show two decimals),
 * as card processors charge fees in the currency's smallest unit. The ledger, the API and the screens then carry
 * the same figure, and amount + fee adds up to the cent (issue 45: "4.005" was charged and shown).
 */
export function chargedFee(value: Decimal.Value): Decimal {
  return new Decimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
