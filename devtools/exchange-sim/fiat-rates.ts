/**
 * The simulator's fiat rates (USDT per unit), constant so tests are
 * deterministic. FixedFloat has no fiat rates: this endpoint is the
 * simulator's own (GET /rates/fiat), the local stand-in for FIAT_RATES_URL.
 */
export const SIM_FIAT_RATES: Record<string, string> = {
  USD: '1',
  EUR: '1.08',
  GBP: '1.27',
  CHF: '1.13',
  JPY: '0.0067',
  CAD: '0.73',
  AUD: '0.66',
};

/** Tests and e2e switch the endpoint off (500) or change a rate through /control/fiat-rates. */
export interface SimFiatRates {
  down: boolean;
  rates: Record<string, string>;
}

export function newSimFiatRates(): SimFiatRates {
  return { down: false, rates: { ...SIM_FIAT_RATES } };
}
