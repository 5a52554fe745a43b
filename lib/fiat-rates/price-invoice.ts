import { ApiError } from '@/lib/api/errors';
import { FIAT_QUOTE_ASSET, isAsset } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import type { InvoicePricing } from '@/lib/invoices/invoice-row';
import type { CreateInvoiceInput } from '@/lib/invoices/schemas';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { getFiatRate } from './get-fiat-rate';

/** Largest USDT amount an invoice may expect (as POST /v1/invoices allows in USDT). */
const MAX_USDT = '1000000000';

/**
 * A fiat-priced invoice input as a USDT one: amount × the locked rate,
 * rounded half-up to 2 decimals as USDT amounts are given, and the pricing
 * stored on the invoice; the input returned is in USDT. USDT input passes through (pricing null).
 */
export async function priceInvoice(
  db: Db,
  mode: Mode,
  input: CreateInvoiceInput,
): Promise<{ input: CreateInvoiceInput; pricing: InvoicePricing | null }> {
  const currency = input.currency ?? input.token;
  if (currency === input.token) return { input: { ...input, currency }, pricing: null };
  if (isAsset(currency)) {
    throw new ApiError('validation_failed', `A ${input.token} invoice is priced in ${input.token} or a fiat currency, not ${currency}.`, [
      { path: 'currency', message: `must be ${input.token} or a fiat currency` },
    ]);
  }
  // Rates are USDT per unit of fiat: applying them to another stablecoin would misprice by its spread to USDT.
  if (input.token !== FIAT_QUOTE_ASSET) {
    throw new ApiError(
      'validation_failed',
      `Fiat prices are offered for ${FIAT_QUOTE_ASSET} invoices; price a ${input.token} invoice in ${input.token}.`,
      [{ path: 'currency', message: `must be ${input.token} for a ${input.token} invoice` }],
    );
  }
  const r = await getFiatRate(db, mode, currency);
  const usdt = new Decimal(input.amount).times(r.rate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  if (usdt.lte(0) || usdt.gt(MAX_USDT))
    throw new ApiError(
      'invalid_amount',
      `${input.amount} ${currency} is ${usdt.toFixed(2)} USDT at ${r.rate}: must be from 0.01 to ${MAX_USDT} USDT.`,
      [{ path: 'amount', message: 'out of range once converted to USDT' }],
    );
  return {
    input: { ...input, currency: FIAT_QUOTE_ASSET, amount: usdt.toFixed() },
    pricing: { priceCurrency: currency, priceAmount: input.amount, rate: r.rate, rateSource: r.source, rateAt: r.fetchedAt },
  };
}
