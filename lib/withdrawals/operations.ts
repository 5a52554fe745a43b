import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { DESTINATION_REFUSAL_CODES } from '@/lib/chain/common/destination-refusal';
import { PageQuery } from '@/lib/api/schemas';
import {
  BalanceQuery,
  BalanceSchema,
  CreateWithdrawalBody,
  MaxWithdrawalQuery,
  MaxWithdrawalSchema,
  WithdrawalList,
  WithdrawalDetailSchema,
  WithdrawalSchema,
} from './schemas';

const tag = 'Withdrawals';

export const getBalanceOp = defineOperation({
  id: 'getBalance',
  method: 'GET',
  path: '/v1/withdrawals/balance',
  scope: 'withdrawals:read',
  tag,
  summary: 'Balance available for withdrawal',
  description:
    "From the ledger, for the mode of the key. `pending` is what open withdrawals hold (already deducted). `?currency=USDC` reads the USDC balance (extension; USDT by default, with the spec's fields unchanged). `withdrawalCosts` (extension) lists, per network paying the asset out, its minimum withdrawal and flat network fee.",
  query: BalanceQuery,
  response: BalanceSchema,
});

export const getMaxWithdrawalOp = defineOperation({
  id: 'getMaxWithdrawal',
  method: 'GET',
  path: '/v1/withdrawals/max',
  scope: 'withdrawals:read',
  tag,
  summary: 'Largest withdrawal the balance allows',
  description:
    "maxAmount = (balance − networkFee) / (1 + feePercent), rounded to the nearest cent (half up) and never above the whole cents of balance − networkFee (with networkFee 0, as on BSC by default, the spec's balance / (1 + feePercent)); estimatedFee = balance − maxAmount, the fee a withdrawal of exactly maxAmount is charged, so maxAmount + estimatedFee is the balance (never more) and that withdrawal empties it. `?currency=USDC` computes it from the USDC balance and `?chain=` for a network's minimum and flat fee (extensions; USDT on BSC by default); an asset or network that does not pay it out is `400 validation_failed`.",
  query: MaxWithdrawalQuery,
  response: MaxWithdrawalSchema,
});

export const createWithdrawalOp = defineOperation({
  id: 'createWithdrawal',
  method: 'POST',
  path: '/v1/withdrawals',
  scope: 'withdrawals:write',
  tag,
  summary: 'Withdraw a token balance to an external address on one of its rails',
  description:
    "The fee (amount × the tenant withdrawal fee rate, plus the network's flat fee: 0 on BSC by default) is charged on top. An amount below the network's minimum is `400 amount_below_minimum` naming it. Amount + fee are debited at once; the transfer is sent from the hot wallet by a background job. A failed transfer returns amount + fee to the balance.",
  body: CreateWithdrawalBody,
  example: { amount: '25.00', destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' },
  response: WithdrawalSchema,
  status: 201,
  errors: [
    'insufficient_balance',
    'amount_below_minimum',
    'invalid_address',
    'destination_own_wallet',
    'destination_token_contract',
    'destination_deposit_address',
    'destination_blacklisted',
    'destination_screened',
    ...DESTINATION_REFUSAL_CODES.filter((c) => c !== 'invalid_address'),
    'service_unavailable',
    'invalid_amount',
    'invalid_url',
    'destination_not_allowed',
    'withdrawal_limit_exceeded',
  ],
});

export const listWithdrawalsOp = defineOperation({
  id: 'listWithdrawals',
  method: 'GET',
  path: '/v1/withdrawals',
  scope: 'withdrawals:read',
  tag,
  summary: 'List withdrawals, newest first',
  query: PageQuery,
  response: WithdrawalList,
});

export const getWithdrawalOp = defineOperation({
  id: 'getWithdrawal',
  method: 'GET',
  path: '/v1/withdrawals/:id',
  scope: 'withdrawals:read',
  tag,
  summary: 'Get a withdrawal',
  params: { id: 'withdrawal' },
  query: z.strictObject({}),
  response: WithdrawalDetailSchema,
});
