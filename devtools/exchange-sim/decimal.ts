import DecimalJs from 'decimal.js';

/**
 * The simulator's own Decimal (a dev tool imports nothing from the gateway): a clone, so its settings never
 * depend on, or change, those of the process it runs in. Same as the gateway's lib/money: enough for 38-digit
 * numerics, half-up.
 */
export const Decimal = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 60 });
export type Decimal = DecimalJs;
