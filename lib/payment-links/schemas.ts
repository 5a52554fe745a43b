import { z } from 'zod';
import { NullableTimestamp, PageQuery, paged, Timestamp } from '@/lib/api/schemas';
import { amountString } from '@/lib/invoices/amount';
import { Decimal } from '@/lib/money';
import { FIAT_CURRENCIES } from '@/lib/invoices/schemas';
import { ASSETS, DEFAULT_RAIL, FIAT_QUOTE_ASSET, OFFERED_CHAINS } from '@/lib/config/rails';

export const LINK_CURRENCIES = [...ASSETS, ...FIAT_CURRENCIES] as const;
const Amount = (example: string) => amountString({ maxDecimals: 2, max: '1000000000', example });

export const CreatePaymentLinkBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).describe('Shown to payers as the page title, e.g. "Donation" or "Workshop ticket".'),
    description: z.string().max(1000).optional().describe('Shown under the name; copied onto each invoice.'),
    amount: Amount('25.00').optional().describe('A fixed price in `currency`. Give either this or minAmount and maxAmount.'),
    minAmount: Amount('5.00').optional().describe('The payer types the amount: the smallest accepted (with maxAmount).'),
    maxAmount: Amount('500.00').optional().describe('The payer types the amount: the largest accepted (with minAmount).'),
    chain: z
      .enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` })
      .default(DEFAULT_RAIL.chain)
      .describe("Network each payer's invoice is on: BSC (default) or another of the rails this account accepts (GET /v1/tenants/me `rails`)."),
    token: z
      .enum(ASSETS, { error: () => `must be one of: ${ASSETS.join(', ')}` })
      .default(DEFAULT_RAIL.token)
      .describe('USDT (default) or USDC: what payers pay and your balance is credited in.'),
    currency: z
      .enum(LINK_CURRENCIES, { error: () => `must be one of: ${LINK_CURRENCIES.join(', ')}` })
      .optional()
      .describe(
        'The price currency: the token (the default), or for a USDT link a fiat currency: each invoice then locks its own rate when the payer opens it.',
      ),
    maxPayments: z
      .number({ error: () => 'must be an integer from 1 to 1000000' })
      .int('must be an integer from 1 to 1000000')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000')
      .optional()
      .describe('Quantity limit: how many payers may pay. Unpaid open invoices hold a place until they expire, so the limit is never exceeded.'),
    expiresAt: z.iso
      .datetime({ offset: true })
      .optional()
      .refine((v) => v === undefined || Date.parse(v) > Date.now(), 'must be in the future')
      .describe('After this instant the link creates no invoices (ISO 8601).'),
    invoiceExpiresInMinutes: z
      .number({ error: () => 'must be an integer from 5 to 10080' })
      .int('must be an integer from 5 to 10080')
      .min(5, 'must be at least 5')
      .max(10_080, 'must be at most 10080 (7 days)')
      .default(30)
      .describe("Minutes each payer's invoice stays payable: 5 to 10,080, default 30."),
  })
  .superRefine((b, ctx) => {
    // As for invoices (priceInvoice): fiat rates are USDT per unit, so only a USDT link is priced in fiat.
    if (b.currency !== undefined && b.currency !== b.token && (ASSETS as readonly string[]).includes(b.currency))
      ctx.addIssue({ code: 'custom', path: ['currency'], message: `must be ${b.token} or (for a USDT link) a fiat currency` });
    else if (b.currency !== undefined && b.currency !== b.token && b.token !== FIAT_QUOTE_ASSET)
      ctx.addIssue({ code: 'custom', path: ['currency'], message: `must be ${b.token}: fiat prices are offered for ${FIAT_QUOTE_ASSET} links` });
    const bounds = b.minAmount !== undefined || b.maxAmount !== undefined;
    if (b.amount !== undefined && bounds)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'give either amount or minAmount and maxAmount, not both' });
    else if (b.amount === undefined && !bounds)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'give amount, or minAmount and maxAmount' });
    else if (bounds && (b.minAmount === undefined || b.maxAmount === undefined))
      ctx.addIssue({ code: 'custom', path: [b.minAmount === undefined ? 'minAmount' : 'maxAmount'], message: 'give both minAmount and maxAmount' });
    else if (bounds && new Decimal(b.minAmount!).gt(b.maxAmount!))
      ctx.addIssue({ code: 'custom', path: ['minAmount'], message: 'must not be above maxAmount' });
  });
export type CreatePaymentLinkInput = z.output<typeof CreatePaymentLinkBody>;

export const PaymentLinkSchema = z
  .object({
    id: z.string(),
    url: z.string().describe('The public page payers open, relative to the gateway (`/l/<slug>`).'),
    name: z.string(),
    description: z.string().nullable(),
    amount: z.string().nullable().describe('Fixed price in currency; null when the payer types it.'),
    minAmount: z.string().nullable(),
    maxAmount: z.string().nullable(),
    chain: z.enum(OFFERED_CHAINS).describe("The network of each payer's invoice."),
    token: z.enum(ASSETS).describe("The token of each payer's invoice."),
    currency: z.enum(LINK_CURRENCIES).describe('The price currency: the token, or a fiat currency (USDT links).'),
    maxPayments: z.number().int().nullable(),
    paidCount: z.number().int().describe('Invoices created through the link that have been paid (seen in full on chain).'),
    openCount: z.number().int().describe('Invoices created through the link still waiting for payment.'),
    invoiceExpiresInMinutes: z.number().int(),
    status: z.enum(['active', 'disabled', 'expired', 'sold_out']).describe('Whether the page creates invoices now, and if not, why.'),
    expiresAt: NullableTimestamp,
    disabledAt: NullableTimestamp,
    createdAt: Timestamp,
  })
  .meta({ id: 'PaymentLink' });
export type PaymentLinkView = z.infer<typeof PaymentLinkSchema>;

export const ListPaymentLinksQuery = PageQuery;
export const PaymentLinkList = paged(PaymentLinkSchema);
