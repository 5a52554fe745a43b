import { z } from 'zod';
import { Timestamp } from '@/lib/api/schemas';
import { ModeSchema } from '@/lib/mode';

/** The dashboard's rename form (updateTenantName). */
export const TenantNameInput = z.object({ name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters') });

/** Most a tenant may accept short of an invoice, in percent. */
export const MAX_UNDERPAYMENT_TOLERANCE_PERCENT = '5';
const MAX_TOLERANCE_INT = 5;

const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

/** "05.50" -> "5.5", "0.00" -> "0": exact on strings (decimal.js stays out of the settings page's bundle). */
function normalizePercent(v: string): string {
  const [int, frac = ''] = v.split('.');
  const f = frac.replace(/0+$/, '');
  return `${String(Number(int))}${f ? `.${f}` : ''}`;
}

/** An underpayment tolerance: a percent as a decimal string, 0 to 5, at most 2 decimals. */
const TolerancePercent = z
  .string({ error: () => 'must be a decimal string such as "0.5"' })
  .trim()
  .superRefine((v, ctx) => {
    if (!PERCENT.test(v)) ctx.addIssue({ code: 'custom', message: 'must be a percent such as "0.5" (digits, at most 2 decimals; no sign)' });
    // At most 3 integer digits: the integer part is exact as a number.
    else if (Number(v.split('.')[0]) > MAX_TOLERANCE_INT || (Number(v.split('.')[0]) === MAX_TOLERANCE_INT && /[1-9]/.test(v.split('.')[1] ?? '')))
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_UNDERPAYMENT_TOLERANCE_PERCENT}` });
  })
  .transform(normalizePercent);

/** The settings form's underpayment tolerance. */
export const UnderpaymentToleranceInput = z.strictObject({ underpaymentTolerancePercent: TolerancePercent });

export const TenantSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: ModeSchema.describe('Mode of the calling key.'),
    invoiceFeePercent: z.string().describe('Fraction of each settled invoice kept as fee (0.01 = 1 percent).'),
    feePercent: z.string().describe('Withdrawal fee rate as a fraction, charged on top of the amount.'),
    underpaymentTolerancePercent: z
      .string()
      .describe(
        'Percent (0 to 5, "0.5" = 0.5 %) a payment may fall short of an invoice and still count as paid; copied onto each invoice at creation. Set in the dashboard settings or with PATCH /v1/tenants/me.',
      ),
    autoRefundOverpayments: z
      .boolean()
      .describe(
        'Auto-refund policy: an overpayment is refunded, once settled and after autoRefundDelaySeconds, to the address the payer gives on the checkout with their claim token (or through your claim link), without your approval (the 24 h limit and approval threshold still apply). Never for payments seen before autoRefundEnabledAt, nor above the bound. Set in the dashboard settings only (the owner, with step-up).',
      ),
    autoRefundEnabledAt: Timestamp.nullable().describe(
      'When the auto-refund policy was last switched on (null while off): payments first seen before it are never refunded automatically.',
    ),
    autoRefundDelaySeconds: z
      .number()
      .int()
      .describe('Seconds a proposal waits before the policy refunds it (refund_request.created is sent at once; you can decline meanwhile).'),
    autoRefundMaxMultiple: z
      .string()
      .describe(
        'Overpayments above this many times the invoice price are left to you, never auto-refunded (with autoRefundMaxAmount: the lower wins).',
      ),
    autoRefundMaxAmount: z.string().describe("Overpayments above this amount (in the invoice's token) are left to you, never auto-refunded."),
    refundNetworkFeePayer: z
      .enum(['payer', 'merchant'])
      .describe(
        'Extension: who pays the network fee when money you never kept is given back (an overpayment, an unpaid invoice’s payments, a held payment sent back): payer (default; taken from what they get back) or merchant (on top, from your balance). Such refunds carry no percentage withdrawal fee, and the invoice fee charged on the money comes back with it. Set in the dashboard settings.',
      ),
    rails: z
      .array(z.string())
      .describe(
        "Extension: the rails (`CHAIN:TOKEN`) this account accepts invoices on in the key's mode: BSC:USDT always, and those of the gateway's enabled rails the account chose (all by default; dashboard settings). See docs/rails.md.",
      ),
    wrongNetworkPolicy: z
      .enum(['credit', 'hold'])
      .describe(
        "Extension: a payment in the invoice's token on another enabled network than the invoice's. credit (default): counted like a correct payment and swept on the network it came on; hold: kept apart for you (heldPayments on the invoice). Set in the dashboard settings or with PATCH /v1/tenants/me.",
      ),
    status: z.enum(['active', 'suspended']),
    apiVersion: z
      .string()
      .describe(
        "The account's dated API version: requests and webhooks use it unless a key, an endpoint or the request's Gateway-Version header names another. The owner upgrades it in the dashboard settings (never back). See docs/api.md#versions.",
      ),
    createdAt: Timestamp,
  })
  .meta({ id: 'Tenant' });

/** Longest delay before an automatic refund: a week. */
export const MAX_AUTO_REFUND_DELAY_SECONDS = 7 * 86_400;

/**
 * The settings form's auto-refund policy (owner, dashboard only). Omitted tuning fields keep their value;
 * `totpCode` is the step-up when the change weakens it (on, a shorter delay, a higher bound) and 2FA is on.
 */
export const AutoRefundPolicyInput = z.strictObject({
  autoRefundOverpayments: z.boolean(),
  autoRefundDelaySeconds: z
    .number({ error: () => 'must be a whole number of seconds' })
    .int('must be a whole number of seconds')
    .min(0, 'must be at least 0')
    .max(MAX_AUTO_REFUND_DELAY_SECONDS, `must be at most ${MAX_AUTO_REFUND_DELAY_SECONDS} (a week)`)
    .optional(),
  autoRefundMaxMultiple: z
    .string({ error: () => 'must be a decimal string such as "10"' })
    .trim()
    .regex(/^\d{1,3}(\.\d{1,4})?$/, 'must be a number such as "10" (at most 999, 4 decimals)')
    .optional(),
  autoRefundMaxAmount: z
    .string({ error: () => 'must be a decimal string such as "1000"' })
    .trim()
    .regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be an amount such as "1000" (at most 2 decimals)')
    .optional(),
  totpCode: z.string().max(20).optional(),
});

/** The settings form's choice of who pays a refund's network fee. */
export const RefundNetworkFeePayerInput = z.strictObject({
  refundNetworkFeePayer: z.enum(['payer', 'merchant'], { error: () => 'must be payer or merchant' }),
});

/** The settings form's rails: the ones to accept besides BSC:USDT. */
export const TenantRailsInput = z.strictObject({
  rails: z.array(z.string().regex(/^[A-Z]+:[A-Z]+$/, 'must be CHAIN:TOKEN')).max(20),
});

const Policy = z.enum(['credit', 'hold'], { error: () => 'must be credit or hold' });

/** The settings form's wrong-network policy. */
export const WrongNetworkPolicyInput = z.strictObject({ wrongNetworkPolicy: Policy });

/** PATCH /v1/tenants/me: the settings an admin key may change (the auto-refund policy is the dashboard's, behind step-up). */
export const UpdateTenantBody = z
  .strictObject({
    underpaymentTolerancePercent: TolerancePercent.optional().describe(
      'Percent (0 to 5, at most 2 decimals, "0.5" = 0.5 %) a payment may fall short and still count as paid; invoices created from now on use it.',
    ),
    wrongNetworkPolicy: Policy.optional().describe(
      "credit: a payment in the invoice's token on another enabled network counts towards it; hold: kept apart for you to credit or send back. Applies to payments found from now on.",
    ),
    refundNetworkFeePayer: z
      .enum(['payer', 'merchant'], { error: () => 'must be payer or merchant' })
      .optional()
      .describe('Who pays the network fee when money you never kept is given back: payer (taken from what they get back) or merchant.'),
  })
  .refine((b) => b.underpaymentTolerancePercent !== undefined || b.wrongNetworkPolicy !== undefined || b.refundNetworkFeePayer !== undefined, {
    message: 'give underpaymentTolerancePercent, wrongNetworkPolicy, refundNetworkFeePayer or several',
  });
export type UpdateTenantInput = z.output<typeof UpdateTenantBody>;
