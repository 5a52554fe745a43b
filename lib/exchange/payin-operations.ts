import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { Timestamp } from '@/lib/api/schemas';
import { ASSETS, OFFERED_CHAINS } from '@/lib/config/rails';
import { amountString } from '@/lib/invoices/amount';
import { CurrencyCode } from './schemas';

const tag = 'Invoices';

export const PayinQuoteBody = z.strictObject({
  payinCurrency: CurrencyCode,
  amount: amountString({ maxDecimals: 2, max: '1000000000', example: '100.00' }).describe(
    "What you want to receive, in the rail's token (USDT by default).",
  ),
  chain: z
    .enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` })
    .optional()
    .describe("Extension: the invoice's network (default BSC), among the enabled rails; the exchange pays out on it."),
  token: z
    .enum(ASSETS, { error: () => `must be one of: ${ASSETS.join(', ')}` })
    .optional()
    .describe("Extension: the invoice's token, USDT (default) or USDC."),
});

export const payinCurrenciesOp = defineOperation({
  id: 'listPayinCurrencies',
  method: 'GET',
  path: '/v1/invoices/payin/currencies',
  scope: 'invoices:read',
  tag,
  summary: 'Currencies a customer can pay an invoice in',
  description:
    "Usable as payinCurrency on POST /v1/invoices. `tag` names the memo field the customer must fill for coins that need one. With the extension `chain`/`token` (default BSC/USDT), for an invoice on that rail: empty when the exchange cannot pay out in that rail's token, and never the rail's own code (pay it directly).",
  query: z.strictObject({ chain: PayinQuoteBody.shape.chain, token: PayinQuoteBody.shape.token }),
  response: z
    .object({ data: z.array(z.object({ code: z.string(), coin: z.string(), network: z.string(), name: z.string(), tag: z.string().nullable() })) })
    .meta({ id: 'PayinCurrencies' }),
  errors: ['exchange_unavailable', 'exchange_busy', 'exchange_error'],
});

export const payinQuoteOp = defineOperation({
  id: 'getPayinQuote',
  method: 'POST',
  path: '/v1/invoices/payin/quote',
  scope: 'invoices:write',
  tag,
  summary: "Quote a pay-in: what the customer pays for you to receive `amount` USDT (or the rail's token)",
  description:
    "Indicative for validForSeconds; the rate is locked when POST /v1/invoices with payinCurrency creates the fixed-rate exchange order. min and max are in the rail's token (USDT on BSC unless chain/token say otherwise).",
  body: PayinQuoteBody,
  example: { payinCurrency: 'BTC', amount: '100.00' },
  response: z
    .object({
      payinCurrency: z.string(),
      payinAmount: z.string(),
      amount: z.string(),
      currency: z.enum(ASSETS).describe("The token received: USDT unless the request's token says otherwise."),
      rate: z.string().describe('Units of `currency` per one unit of payinCurrency, fees included.'),
      min: z.string(),
      max: z.string(),
      validForSeconds: z.number().int(),
      expiresAt: Timestamp,
    })
    .meta({ id: 'PayinQuote' }),
  errors: ['exchange_unavailable', 'exchange_busy', 'exchange_error', 'unknown_currency', 'currency_unavailable', 'amount_out_of_range'],
});
