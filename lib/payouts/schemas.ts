import { z } from 'zod';
import { PAYOUT_ITEM_STATUSES, PAYOUT_STATUSES } from '@/db/schema/payouts';
import { WITHDRAWAL_STATUSES } from '@/db/schema/withdrawals';
import { NullableTimestamp, Timestamp, paged } from '@/lib/api/schemas';
import { ASSETS, OFFERED_CHAINS } from '@/lib/config/rails';
import { CreateWithdrawalBody, WithdrawalAmount } from '@/lib/withdrawals/schemas';

/** At most this many items in one request: the whole batch is checked and debited in one transaction. */
export const MAX_PAYOUT_ITEMS = 1000;

export const PayoutItemInput = z.strictObject({
  reference: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .describe('Your id for this item (an employee, an invoice of yours): unique among your payouts, so a retried item is refused, never paid twice.'),
  destinationAddress: CreateWithdrawalBody.shape.destinationAddress,
  amount: WithdrawalAmount,
  chain: z
    .enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` })
    .describe('The network to pay on, among the enabled rails.'),
  token: z.enum(ASSETS, { error: () => `must be one of: ${ASSETS.join(', ')}` }).describe('The token paid, debited from that balance.'),
});
export type PayoutItemInputValue = z.infer<typeof PayoutItemInput>;

export const CreatePayoutBody = z.strictObject({
  items: z.array(PayoutItemInput).min(1).max(MAX_PAYOUT_ITEMS).describe(`1 to ${MAX_PAYOUT_ITEMS} recipients.`),
});
export type CreatePayoutInput = z.infer<typeof CreatePayoutBody>;

const Amount = z.string();

export const PayoutItemSchema = z
  .object({
    position: z.int().describe("The item's index in the request, from 0."),
    reference: z.string(),
    status: z.enum(PAYOUT_ITEM_STATUSES).describe("PENDING while its withdrawal is PENDING or PROCESSING; then the withdrawal's end."),
    withdrawalId: z.string(),
    withdrawalStatus: z.enum(WITHDRAWAL_STATUSES),
    chain: z.enum(OFFERED_CHAINS),
    token: z.enum(ASSETS),
    destinationAddress: z.string(),
    amount: Amount,
    feeAmount: Amount.describe("What was debited on top of the amount: the tenant's percentage fee plus the network fee reserved."),
    networkFeeReserved: Amount.describe("The network's flat fee, reserved in feeAmount when the payout was debited."),
    networkFee: Amount.nullable().describe(
      "The network fee finally charged, once the item ended: an item sent in a batch pays its share of the transaction's actual cost (never more than networkFeeReserved; the rest is credited back as network_fee_refund), one sent alone the flat fee, a failed one nothing. Null while open.",
    ),
    networkFeeNote: z.string().nullable().describe('Why a batched item kept the flat network fee (its batch could not be priced); null otherwise.'),
    netAmount: Amount,
    txHash: z.string().nullable(),
    pendingReason: z.string().nullable(),
    failureReason: z.string().nullable(),
  })
  .meta({ id: 'PayoutItem' });

export const PayoutTotalSchema = z
  .object({
    token: z.enum(ASSETS),
    amount: Amount.describe('Sum of the items’ amounts in this token.'),
    feeAmount: Amount.describe('Sum of their fees (percentage + network fee), debited with them.'),
  })
  .meta({ id: 'PayoutTotal' });

export const PayoutSchema = z
  .object({
    id: z.string(),
    status: z.enum(PAYOUT_STATUSES).describe('PROCESSING until every item is COMPLETED or FAILED, then COMPLETED.'),
    itemCount: z.int(),
    counts: z.object({ pending: z.int(), completed: z.int(), failed: z.int() }),
    awaitingApproval: z
      .boolean()
      .describe("The batch's total is above the approval threshold: every item waits for ONE decision of the owner in the dashboard."),
    totals: z.array(PayoutTotalSchema).describe('What was debited, per token.'),
    items: z.array(PayoutItemSchema),
    createdAt: Timestamp,
    completedAt: NullableTimestamp,
  })
  .meta({ id: 'Payout' });
export type PayoutView = z.infer<typeof PayoutSchema>;

export const PayoutListItem = PayoutSchema.pick({ id: true, status: true, itemCount: true, createdAt: true, completedAt: true }).meta({
  id: 'PayoutListItem',
});
export const PayoutList = paged(PayoutListItem);
