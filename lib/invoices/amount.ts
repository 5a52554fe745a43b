import { z } from 'zod';
import { Decimal } from '@/lib/money';

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * A decimal string amount: plain digits with an optional fraction (no sign,
 * exponent or spaces), greater than 0, at most `maxDecimals` decimals once
 * trailing zeros are dropped ("10.500" is 10.5), at most `max`.
 */
export function amountString(opts: { maxDecimals: number; max: string; example: string }) {
  return z
    .string({ error: () => `must be a decimal string such as "${opts.example}"` })
    .superRefine((value, ctx) => {
      if (!DECIMAL.test(value)) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a decimal string such as "${opts.example}" (digits, optional fraction; no sign or exponent)`,
        });
        return;
      }
      const d = new Decimal(value);
      if (d.lte(0)) ctx.addIssue({ code: 'custom', message: 'must be greater than 0' });
      else if (d.decimalPlaces() > opts.maxDecimals) ctx.addIssue({ code: 'custom', message: `must have at most ${opts.maxDecimals} decimals` });
      else if (d.gt(opts.max)) ctx.addIssue({ code: 'custom', message: `must be at most ${new Decimal(opts.max).toFixed()}` });
    })
    .transform((value) => new Decimal(value).toFixed());
}

/** Amounts on the wire: at least two decimals, more only when the chain carried more ("10.00", "0.000001"). */
export function formatAmount(value: Decimal.Value): string {
  const d = new Decimal(value);
  return d.toFixed(Math.max(2, d.decimalPlaces()));
}
