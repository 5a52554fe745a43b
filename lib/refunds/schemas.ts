import { z } from 'zod';
import { WithdrawalAmount, WithdrawalSchema } from '@/lib/withdrawals/schemas';

export const CreateRefundBody = z.strictObject({
  destinationAddress: z
    .string()
    .max(100)
    .describe(
      "The payer's address on the invoice's network: an EVM address (0x + 40 hex; checksum checked when mixed case), or for a TRON invoice a T… address (Base58Check; one on USDT's blacklist is 400 destination_blacklisted).",
    ),
  amount: WithdrawalAmount.optional().describe(
    'USDT to give back, at most `refundable`. Default: for an invoice that was paid, the overpayment (what arrived above amountExpected); for one that was not (expired, partially paid), everything it received.',
  ),
});
export type CreateRefundInput = z.infer<typeof CreateRefundBody>;

export const RefundListSchema = z
  .object({
    invoiceId: z.string(),
    settled: z.string().describe('USDT of this invoice settled to the balance so far (received, confirmed and swept), fees included.'),
    refunded: z.string().describe('USDT given back or on its way (refunds not FAILED).'),
    refundable: z.string().describe('settled − refunded: the most a new refund may give back.'),
    data: z.array(WithdrawalSchema).describe("The invoice's refunds, oldest first: withdrawals whose metadata.refundOfInvoiceId is this invoice."),
  })
  .meta({ id: 'RefundList' });
export type RefundList = z.infer<typeof RefundListSchema>;
