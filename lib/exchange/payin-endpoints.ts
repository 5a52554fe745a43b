import type { Db } from '@/lib/db';
import { getNetworks, requireRail, tokensOf } from '@/lib/chain/network';
import { resolveRailCurrency } from './rail-currencies';
import { requestedRail, type Asset, type ChainKey } from '@/lib/config/rails';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { getCurrencies } from './currencies';
import { requireExchange } from './get-exchange';
import { checkPayinPair } from './payin-pair';

/** How long a pay-in quote is shown as valid; the rate is locked only when the invoice creates its fixed-rate order. */
export const PAYIN_QUOTE_SECONDS = 60;

/** GET /v1/invoices/payin/currencies: what a customer can pay in (the exchange accepts it and can pay out USDT on BSC). */
export async function listPayinCurrencies(db: Db, mode: Mode, query: { chain?: ChainKey; token?: Asset } = {}) {
  // The invoice's rail (BSC USDT by default; 400 when not enabled): what the exchange pays out in, and the one code not to offer.
  const rail = requireRail(mode, requestedRail(query), []);
  const list = await getCurrencies(requireExchange(db, mode, null), mode);
  const payout = resolveRailCurrency(list, rail);
  // The token on every enabled rail (USDTTRC while TRON:USDT is on) is paid directly, not through the exchange.
  const direct = new Set(
    getNetworks(mode).flatMap((n) =>
      tokensOf(n).flatMap((t) => (t.asset === rail.token ? (resolveRailCurrency(list, { chain: n.chain, token: t.asset })?.code ?? []) : [])),
    ),
  );
  const data = payout?.recv ? list.filter((c) => c.send && c.code !== payout.code && !direct.has(c.code)) : [];
  return { data: data.map((c) => ({ code: c.code, coin: c.coin, network: c.network, name: c.name, tag: c.tag ?? null })) };
}

/** POST /v1/invoices/payin/quote: what the customer pays in payinCurrency for the tenant to receive `amount` of the rail's token. */
export async function quotePayin(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  input: { payinCurrency: string; amount: string; chain?: ChainKey; token?: Asset },
) {
  const mode = owner.mode;
  // A rail this gateway does not enable is a 400 naming the field, as on POST /v1/invoices.
  const rail = requireRail(mode, requestedRail(input), []);
  const { quote } = await checkPayinPair(requireExchange(db, mode, owner.tenantId), mode, input.payinCurrency, input.amount, rail);
  const now = Date.now();
  return {
    payinCurrency: input.payinCurrency,
    payinAmount: new Decimal(quote.from.amount).toFixed(),
    amount: new Decimal(quote.to.amount).toFixed(),
    currency: rail.token,
    rate: new Decimal(quote.from.rate).toFixed(),
    min: new Decimal(quote.to.min).toFixed(),
    max: new Decimal(quote.to.max).toFixed(),
    validForSeconds: PAYIN_QUOTE_SECONDS,
    expiresAt: new Date(now + PAYIN_QUOTE_SECONDS * 1000).toISOString(),
  };
}
