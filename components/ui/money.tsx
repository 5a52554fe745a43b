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
export function Money({ value, currency, className = '', dp }: { value: string; currency: string | null; className?: string; dp?: number }) {
  // Cut to `dp` decimals for display (a chain balance has 18): the exact figure is the title.
  const cut = dp !== undefined && new Decimal(value).decimalPlaces() > dp;
  return (
    <span className={`tabular-nums ${className}`} title={cut ? formatMoney(value) : undefined}>
      {cut && new Decimal(value).abs().lt(new Decimal(10).pow(-dp))
        ? `${new Decimal(value).isNeg() ? '−' : ''}< ${new Decimal(10).pow(-dp).toFixed(dp)}`
        : formatMoney(value, { dp })}
      {currency && <span className="ml-1 text-slate-500">{currency}</span>}
    </span>
  );
}
