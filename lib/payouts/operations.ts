import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { PageQuery } from '@/lib/api/schemas';
import { CreatePayoutBody, PayoutList, PayoutSchema } from './schemas';

const tag = 'Payouts';

export const createPayoutOp = defineOperation({
  id: 'createPayout',
  method: 'POST',
  path: '/v1/payouts',
  scope: 'withdrawals:write',
  tag,
  summary: 'Pay many recipients at once, all or nothing',
  description:
    'Extension (issue 47). Every item is a withdrawal on its rail and is checked as `POST /v1/withdrawals` checks one (address form of its network, ours, deposit addresses, screening, the freeze list, the minimum, and for API keys the allow-list, the 24 h limit and the approval threshold). ' +
    'One bad item refuses the whole request: `400 payout_items_invalid` with one detail per refusal (`path` items[i].field, `code` the refusal of that row). ' +
    'Then every item (amount + fee, per token) is debited in one transaction, or nothing is: `400 insufficient_balance` names the shortfall per token. ' +
    'A `reference` already used by another payout item is `409 duplicate_reference`. Send an Idempotency-Key: a retry of the request returns the same payout.',
  body: CreatePayoutBody,
  example: {
    items: [
      {
        reference: 'payroll-2026-12-alice',
        destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        amount: '25.00',
        chain: 'BSC',
        token: 'USDT',
      },
    ],
  },
  response: PayoutSchema,
  status: 201,
  errors: ['payout_items_invalid', 'insufficient_balance', 'duplicate_reference', 'withdrawal_limit_exceeded', 'service_unavailable'],
});

export const listPayoutsOp = defineOperation({
  id: 'listPayouts',
  method: 'GET',
  path: '/v1/payouts',
  scope: 'withdrawals:read',
  tag,
  summary: 'List payouts, newest first',
  query: PageQuery,
  response: PayoutList,
});

export const getPayoutOp = defineOperation({
  id: 'getPayout',
  method: 'GET',
  path: '/v1/payouts/:id',
  scope: 'withdrawals:read',
  tag,
  summary: 'Get a payout with the status of each item',
  params: { id: 'payout' },
  query: z.strictObject({}),
  response: PayoutSchema,
});
