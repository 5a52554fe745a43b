import { z } from 'zod';
import { ASSETS, DEFAULT_RAIL, OFFERED_CHAINS } from '@/lib/config/rails';
import { NullableTimestamp, Timestamp, paged } from '@/lib/api/schemas';
import { WITHDRAWAL_STATUSES } from '@/db/schema/withdrawals';

export const MIN_WITHDRAWAL = '0.01';

/** A decimal string with at most 2 decimals (format only; range checks give their own codes). */
export const WithdrawalAmount = z.string().max(40).describe('USDT amount as a decimal string, at least 0.01, at most 2 decimals, e.g. "25.00".');

export const CreateWithdrawalBody = z.strictObject({
  amount: WithdrawalAmount,
  destinationAddress: z
    .string()
    .max(100)
    .describe(
      "The recipient on the withdrawal's network: an EVM address (0x + 40 hex; checksum checked when mixed case), or on TRON a T… address (Base58Check; one on USDT's blacklist is 400 destination_blacklisted).",
    ),
  postBackUrl: z.string().max(2048).optional().describe("HTTPS URL that receives this withdrawal's events instead of the webhook endpoints."),
  chain: z
    .enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` })
    .optional()
    .describe("Extension: the network to pay on (default BSC), among the enabled rails; sent from that network's hot wallet."),
  token: z
    .enum(ASSETS, { error: () => `must be one of: ${ASSETS.join(', ')}` })
    .optional()
    .describe('Extension: USDT (default) or USDC; debited from that balance.'),
});
export type CreateWithdrawalInput = z.infer<typeof CreateWithdrawalBody>;

export const WithdrawalSchema = z
  .object({
    id: z.string(),
    amount: z.string(),
    feeAmount: z.string(),
    netAmount: z.string(),
    status: z.enum(WITHDRAWAL_STATUSES),
    destinationAddress: z.string(),
    chain: z.enum(OFFERED_CHAINS),
    token: z.enum(ASSETS),
    txHash: z.string().nullable(),
    failureReason: z.string().nullable(),
    pendingReason: z
      .string()
      .nullable()
      .describe(
        'Why the withdrawal is waiting: PENDING (e.g. hot wallet short of gas) or PROCESSING (chain could not be read, transaction not found yet); retried automatically. Null when nothing is in the way.',
      ),
    postBackUrl: z.string().nullable(),
    metadata: z.record(z.string(), z.string()).optional(),
    createdAt: Timestamp,
    completedAt: NullableTimestamp,
  })
  .meta({ id: 'Withdrawal' });
export type WithdrawalView = z.infer<typeof WithdrawalSchema>;

/** GET /v1/withdrawals/{id}: the withdrawal with what its network fee finally came to (read from the ledger). */
export const WithdrawalDetailSchema = WithdrawalSchema.extend({
  networkFeeReserved: z.string().describe("Extension: the network's flat fee, debited within feeAmount when the withdrawal was created."),
  networkFee: z
    .string()
    .nullable()
    .describe(
      "Extension: the network fee finally charged, once the withdrawal ended: sent in a batch, its share of the transaction's actual cost (never more than networkFeeReserved); sent alone, the flat fee; failed, nothing (everything came back). Null while open.",
    ),
  networkFeeRefunded: z
    .string()
    .describe(
      'Extension: the part of networkFeeReserved credited back to the balance (a network_fee_refund) because its batch share cost less; 0.00 otherwise.',
    ),
}).meta({ id: 'WithdrawalDetail' });
export type WithdrawalDetailView = z.infer<typeof WithdrawalDetailSchema>;

export const WithdrawalListItem = WithdrawalSchema.pick({
  id: true,
  amount: true,
  feeAmount: true,
  netAmount: true,
  status: true,
  destinationAddress: true,
  txHash: true,
  createdAt: true,
}).meta({ id: 'WithdrawalListItem' });

export const WithdrawalList = paged(WithdrawalListItem);

/** What a withdrawal on one network costs beside the percentage fee. */
export const WithdrawalCostSchema = z
  .object({
    chain: z.enum(OFFERED_CHAINS),
    minWithdrawal: z.string().describe('The smallest withdrawal (and refund) paid on this network.'),
    networkFee: z.string().describe('Flat fee added to the percentage fee on each withdrawal on this network: its gas, set by the operator.'),
  })
  .meta({ id: 'WithdrawalCost' });

export const BalanceSchema = z
  .object({
    available: z.string().describe('Available for withdrawal, from the ledger.'),
    pending: z.string().describe('Held by withdrawals not yet final (already deducted from available).'),
    currency: z.enum(ASSETS).describe('The asset (query `currency`, USDT by default): one balance per asset, whichever network paid it.'),
    network: z.literal(DEFAULT_RAIL.chain).describe('The network a withdrawal without `chain` pays on.'),
    withdrawalCosts: z
      .array(WithdrawalCostSchema)
      .describe('Extension: for each enabled network that pays this asset out, its minimum withdrawal and flat network fee (docs/rails.md).'),
  })
  .meta({ id: 'Balance' });

export const BalanceQuery = z.strictObject({
  currency: z
    .enum(ASSETS, { error: () => `must be one of: ${ASSETS.join(', ')}` })
    .optional()
    .describe('Extension: the asset to read, USDT (default) or USDC.'),
});

export const MaxWithdrawalQuery = BalanceQuery.extend({
  chain: z
    .enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` })
    .optional()
    .describe('Extension: the network to withdraw on (its minimum and flat fee apply); default BSC, or the first enabled network paying the asset.'),
});

export const MaxWithdrawalSchema = z
  .object({
    maxAmount: z.string(),
    balance: z.string(),
    feePercent: z.string().describe('Fee rate as a fraction (0.01 = 1 percent).'),
    estimatedFee: z.string().describe('balance − maxAmount: the fee a withdrawal of exactly maxAmount is charged (percentage + network fee).'),
    minWithdrawal: z.string().describe("The network's minimum withdrawal (0.01 on BSC, the spec's)."),
    networkFee: z.string().describe("Extension: the network's flat fee, added to the percentage fee (0.00 on BSC by default)."),
    chain: z.enum(OFFERED_CHAINS).describe('Extension: the network the figures are for.'),
  })
  .meta({ id: 'MaxWithdrawal' });
