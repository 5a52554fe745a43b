import { isAsset } from '@/lib/config/rails';
import { Decimal } from '@/lib/money';

/**
 * Decimals an amount of `unit` is shown with: tokens (USDT, USDC) to the cent, the minor unit fees are charged in
 * (lib/money chargedFee); a native coin (BNB, ETH, TRX) to 6, enough to read a gas wallet's balance against its floor.
 */
export function displayDp(unit: string): number {
  return isAsset(unit) ? 2 : 6;
}

/**
 * Amounts come as decimal strings and are formatted with decimal.js only:
 * grouping is inserted into the digit string, so nothing passes through Number.
 */
export function formatMoney(value: string, opts: { dp?: number } = {}): string {
  const d = new Decimal(value);
  const fixed = opts.dp === undefined ? d.toFixed(Math.max(2, d.decimalPlaces())) : d.toFixed(opts.dp, Decimal.ROUND_DOWN);
  const [int, frac] = fixed.replace('-', '').split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${d.isNeg() ? '-' : ''}${grouped}${frac ? `.${frac}` : ''}`;
}

/**
 * An amount of `unit` as the screens show it, cut (never rounded up) to its display precision: tokens to the cent, a
 * native coin to 6 decimals without zeros past the cent ("1,000.00 BNB" and "999.999759 BNB", not 18 decimals).
 */
export function formatIn(value: string, unit: string): string {
  return formatMoney(new Decimal(value).toDecimalPlaces(displayDp(unit), Decimal.ROUND_DOWN).toFixed());
}

/**
 * `currency` is required (no asset is assumed): null shows the bare amount where the unit is said elsewhere.
 * `dp` cuts to that many decimals; `shownIn` to that unit's display precision (formatIn).
 */
export function Money({
  value,
  currency,
  className = '',
  dp,
  shownIn,
}: {
  value: string;
  currency: string | null;
  className?: string;
  dp?: number;
  shownIn?: string;
}) {
  const places = dp ?? (shownIn === undefined ? undefined : displayDp(shownIn));
  // Cut for display (a chain balance has 18 decimals): the exact figure is the title.
  const cut = places !== undefined && new Decimal(value).decimalPlaces() > places;
  return (
    <span className={`tabular-nums ${className}`} title={cut ? formatMoney(value) : undefined}>
      {cut && new Decimal(value).abs().lt(new Decimal(10).pow(-places))
        ? `${new Decimal(value).isNeg() ? '−' : ''}< ${new Decimal(10).pow(-places).toFixed(places)}`
        : dp === undefined && shownIn !== undefined
          ? formatIn(value, shownIn)
          : formatMoney(value, { dp })}
      {currency && <span className="ml-1 text-slate-500">{currency}</span>}
    </span>
  );
}
