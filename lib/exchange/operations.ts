import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import {
  AvailableSchema,
  CurrencyEnvelope,
  DetailsBody,
  ExchangeWithdrawalBody,
  ExchangeWithdrawalResult,
  OrderBody,
  OrderEnvelope,
  PairBody,
  PriceEnvelope,
} from './schemas';

const tag = 'Exchange withdrawals';
const pair = { type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount: 100 } as const;
const exchangeErrors = [
  'exchange_unavailable',
  'exchange_busy',
  'exchange_error',
  'exchange_rejected',
  'unknown_currency',
  'currency_unavailable',
] as const;

export const exchangeAvailableOp = defineOperation({
  id: 'getExchangeAvailability',
  method: 'GET',
  path: '/v1/withdrawals/exchange/available',
  scope: 'withdrawals:read',
  tag,
  summary: 'Whether exchange withdrawals are configured',
  query: z.strictObject({}),
  response: AvailableSchema,
});

export const exchangeCurrenciesOp = defineOperation({
  id: 'listExchangeCurrencies',
  method: 'GET',
  path: '/v1/withdrawals/exchange/currencies',
  scope: 'withdrawals:read',
  tag,
  summary: 'Currencies of the exchange (envelope code/msg/data)',
  description: 'send: can be paid in; recv: can be withdrawn to. Cached for five minutes.',
  query: z.strictObject({}),
  response: CurrencyEnvelope,
  errors: [...exchangeErrors],
});

export const exchangePriceOp = defineOperation({
  id: 'getExchangePrice',
  method: 'POST',
  path: '/v1/withdrawals/exchange/price',
  scope: 'withdrawals:read',
  tag,
  summary: 'Quote a conversion',
  description: 'An amount outside the pair limits is still answered (code 0) with `errors` LIMIT_MIN / LIMIT_MAX and the min and max.',
  body: PairBody,
  example: pair,
  response: PriceEnvelope,
  errors: [...exchangeErrors],
});

export const exchangeOrderOp = defineOperation({
  id: 'createExchangeOrder',
  method: 'POST',
  path: '/v1/withdrawals/exchange/order',
  scope: 'withdrawals:write',
  tag,
  summary: 'Create an exchange order (manual, discouraged)',
  description:
    'Creates the order only: you send the deposit to from.address yourself and keep the token. Your balance is not touched. Prefer /withdrawal.',
  body: OrderBody,
  example: { ...pair, toAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  response: OrderEnvelope,
  errors: [...exchangeErrors, 'amount_out_of_range'],
});

export const exchangeOrderDetailsOp = defineOperation({
  id: 'getExchangeOrderDetails',
  method: 'POST',
  path: '/v1/withdrawals/exchange/order/details',
  scope: 'withdrawals:read',
  tag,
  summary: 'Current state of an exchange order',
  description: 'Orders created through this API by your account; id and token must both match.',
  body: DetailsBody,
  example: { id: 'TH7XQZ', token: 'abcdefghijklmnopqrstuvwxyz0123456789abcd' },
  response: OrderEnvelope,
  errors: [...exchangeErrors, 'not_found'],
});

export const exchangeWithdrawalOp = defineOperation({
  id: 'createExchangeWithdrawal',
  method: 'POST',
  path: '/v1/withdrawals/exchange/withdrawal',
  scope: 'withdrawals:write',
  tag,
  summary: 'Withdraw into another currency (recommended)',
  description:
    "fromCcy must be USDTBSC, or with the chain/token extension the exchange code of that rail (e.g. USDC for ETHEREUM/USDC). Creates the order, debits from.amount (the token sent, exchange fee included) from that asset's balance with the withdrawal record, sends the token from that network's hot wallet to the order deposit address and waits briefly for its confirmations. COMPLETED means the token reached the exchange; metadata.exchangeStatus follows the order. Send an Idempotency-Key.",
  body: ExchangeWithdrawalBody,
  example: { ...pair, toAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' },
  response: ExchangeWithdrawalResult,
  errors: [
    ...exchangeErrors,
    'amount_out_of_range',
    'insufficient_balance',
    'service_unavailable',
    'destination_not_allowed',
    'destination_blacklisted',
    'destination_screened',
    'withdrawal_limit_exceeded',
    'approval_required',
  ],
});
