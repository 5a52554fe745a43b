import { z } from 'zod';
import { defineOperation } from '@/lib/api/operation';
import { Timestamp } from '@/lib/api/schemas';

export const WithdrawalControlsSchema = z
  .object({
    allowlistEnabled: z.boolean().describe('When true, API withdrawals (in any asset, and exchange withdrawals) go only to active allowedAddresses.'),
    coolingOffHours: z.number().int().describe('Hours a newly added address waits before it can be used.'),
    dailyLimit: z
      .string()
      .nullable()
      .describe(
        'Rolling 24-hour limit on withdrawal amounts made with API keys, in USD: one limit over all assets, USDT and USDC counted 1:1; null = none.',
      ),
    dailyRemaining: z.string().nullable().describe('What the limit still allows now (USD, any asset); null when there is no limit.'),
    approvalThreshold: z
      .string()
      .nullable()
      .describe('API withdrawals above this amount (USD, any asset 1:1) wait for the owner (pendingReason awaiting_approval); null = never.'),
    allowedAddresses: z.array(z.object({ address: z.string(), label: z.string().nullable(), activeAt: Timestamp, active: z.boolean() })),
  })
  .meta({ id: 'WithdrawalControls' });

export const getWithdrawalControlsOp = defineOperation({
  id: 'getWithdrawalControls',
  method: 'GET',
  path: '/v1/withdrawals/controls',
  scope: 'withdrawals:read',
  tag: 'Withdrawals',
  summary: "The owner's withdrawal controls for the key's mode (read-only)",
  description:
    'Read-only by design: the controls are changed only by the account owner in the dashboard (with a TOTP code when two-factor sign-in is on), so an API key can never lift its own limits.',
  query: z.strictObject({}),
  response: WithdrawalControlsSchema,
});
