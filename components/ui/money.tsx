import { Decimal } from '@/lib/money';

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

/** `currency` is required (no asset is assumed): null shows the bare amount where the unit is said elsewhere. */
export function Money({ value, currency, className = '' }: { value: string; currency: string | null; className?: string }) {
  return (
    <span className={`tabular-nums ${className}`}>
      {formatMoney(value)}
      {currency && <span className="ml-1 text-slate-500">{currency}</span>}
    </span>
  );
}
