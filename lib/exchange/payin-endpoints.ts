import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { getCurrencies, USDT_BSC } from './currencies';
import { requireExchange } from './get-exchange';
import { checkPayinPair } from './payin-pair';

/** How long a pay-in quote is shown as valid; the rate is locked only when the invoice creates its fixed-rate order. */
export const PAYIN_QUOTE_SECONDS = 60;

/** GET /v1/invoices/payin/currencies: what a customer can pay in (the exchange accepts it and can pay out USDT on BSC). */
export async function listPayinCurrencies(db: Db, mode: Mode) {
  const list = await getCurrencies(requireExchange(db, mode, null), mode);
  const usdt = list.find((c) => c.code === USDT_BSC);
  const data = usdt?.recv ? list.filter((c) => c.send && c.code !== USDT_BSC) : [];
  return { data: data.map((c) => ({ code: c.code, coin: c.coin, network: c.network, name: c.name, tag: c.tag ?? null })) };
}

/** POST /v1/invoices/payin/quote: what the customer pays in payinCurrency for the tenant to receive `amount` USDT. */
export async function quotePayin(db: Db, owner: { tenantId: string; mode: Mode }, input: { payinCurrency: string; amount: string }) {
  const mode = owner.mode;
  const { quote } = await checkPayinPair(requireExchange(db, mode, owner.tenantId), mode, input.payinCurrency, input.amount);
  const now = Date.now();
  return {
    payinCurrency: input.payinCurrency,
    payinAmount: new Decimal(quote.from.amount).toFixed(),
    amount: new Decimal(quote.to.amount).toFixed(),
    currency: 'USDT' as const,
    rate: new Decimal(quote.from.rate).toFixed(),
    min: new Decimal(quote.to.min).toFixed(),
    max: new Decimal(quote.to.max).toFixed(),
    validForSeconds: PAYIN_QUOTE_SECONDS,
    expiresAt: new Date(now + PAYIN_QUOTE_SECONDS * 1000).toISOString(),
  };
}
