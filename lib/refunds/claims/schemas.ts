import { z } from 'zod';
import { REFUND_CLAIM_STATUSES } from '@/db/schema/refund-requests';
import { PageQuery, paged } from '@/lib/api/schemas';
import { WithdrawalAmount } from '@/lib/withdrawals/schemas';

export const CLAIM_DEFAULT_HOURS = 72;
export const CLAIM_MAX_HOURS = 720;

export const CreateRefundClaimBody = z.strictObject({
  invoiceId: z.string().max(64).describe('The invoice whose payment is given back.'),
  amount: WithdrawalAmount.describe(
    "What the payer may claim, in the invoice's token: at least the network's minimum refund, at most what the invoice can still refund (settled, less refunds and other open links).",
  ),
  expiresInHours: z
    .number()
    .int()
    .min(1)
    .max(CLAIM_MAX_HOURS)
    .optional()
    .describe(`Hours the link stays usable; default ${CLAIM_DEFAULT_HOURS}, at most ${CLAIM_MAX_HOURS} (30 days).`),
});
export type CreateRefundClaimInput = z.infer<typeof CreateRefundClaimBody>;

export const RefundClaimSchema = z
  .object({
    id: z.string(),
    invoiceId: z.string(),
    amount: z.string().describe("In the invoice's token."),
    status: z
      .enum(REFUND_CLAIM_STATUSES)
      .describe('OPEN: usable; USED: the payer gave an address (see `refundRequestId`); CANCELED by you; EXPIRED unused past `expiresAt`.'),
    createdBy: z.string().describe('`user:<id>` or `api_key:<id>`.'),
    refundRequestId: z.string().nullable().describe('The refund request the payer made with it (source `claim_link`), once USED.'),
    expiresAt: z.string(),
    usedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'RefundClaim' });
export type RefundClaimView = z.infer<typeof RefundClaimSchema>;

export const CreatedRefundClaimSchema = RefundClaimSchema.extend({
  url: z
    .string()
    .describe(
      'The one-time link to send the payer: `/refund-claim/<secret>`, absolute when PUBLIC_BASE_URL is set. Shown only in this response (only its hash is stored).',
    ),
}).meta({ id: 'CreatedRefundClaim' });
export type CreatedRefundClaimView = z.infer<typeof CreatedRefundClaimSchema>;

export const ListRefundClaimsQuery = PageQuery.extend({
  invoiceId: z.string().max(64).optional().describe("Only this invoice's links."),
});
export type ListRefundClaimsInput = z.infer<typeof ListRefundClaimsQuery>;
export const RefundClaimList = paged(RefundClaimSchema);

export const CancelRefundClaimBody = z.strictObject({});

/** What the payer sends from the claim page. */
export const RedeemRefundClaimInput = z.object({
  destinationAddress: z.string().trim().max(100),
});
