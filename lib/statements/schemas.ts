import { z } from 'zod';
import { PageQuery, paged, Timestamp } from '@/lib/api/schemas';
import { ASSETS, DEFAULT_RAIL, OFFERED_CHAINS } from '@/lib/config/rails';

/**
 * What a ledger entry was, as an accountant reads it. Entry kinds this list does not know yet (new
 * features add them) are `adjustment`, never an error: the amount and balance still add up.
 */
export const BALANCE_TRANSACTION_TYPES = [
  'payment_credit',
  'invoice_fee',
  'withdrawal',
  'withdrawal_fee',
  'withdrawal_reversal',
  'network_fee',
  'refund',
  'exchange',
  'adjustment',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

const signed = (what: string) => z.string().describe(`${what}: a decimal string, negative for money leaving the balance.`);

export const BalanceTransactionSchema = z
  .object({
    id: z.string().describe('The ledger entry (led_...).'),
    type: z.enum(BALANCE_TRANSACTION_TYPES),
    description: z.string(),
    amount: signed('Gross amount (a payment credit: what the payer sent; otherwise equal to net)'),
    fee: z.string().describe('The invoice fee kept from a payment credit; "0.00" for other types (withdrawal fees are their own transactions).'),
    net: signed('What the balance moved by'),
    asset: z.string().describe('The balance it belongs to (USDT, USDC).'),
    network: z.enum(OFFERED_CHAINS).nullable().describe('The network of the settlement or withdrawal that caused it; null for adjustments.'),
    sourceType: z.string().describe('settlement, withdrawal, or the kind of record behind an adjustment.'),
    sourceId: z.string(),
    invoiceId: z.string().nullable().describe('Payment credits: the invoice paid.'),
    txHash: z.string().nullable().describe('The on-chain transaction that moved the money, where there is one.'),
    balanceAfter: z.string().describe("The asset's balance right after this transaction was posted."),
    fiat: z
      .object({ currency: z.string(), amount: z.string(), rate: z.string() })
      .nullable()
      .describe("Payment credits of a fiat-priced invoice: net in the invoice's currency at the rate locked on the invoice."),
    createdAt: Timestamp,
  })
  .meta({ id: 'BalanceTransaction' });

export const BalanceTransactionList = paged(BalanceTransactionSchema);

export const ListBalanceTransactionsQuery = PageQuery.extend({
  asset: z.enum(ASSETS).optional().describe('Only this balance.'),
  network: z.enum(OFFERED_CHAINS).optional().describe('Only transactions caused on this network.'),
  type: z.enum(BALANCE_TRANSACTION_TYPES).optional(),
  createdFrom: z.iso.datetime({ offset: true }).optional().describe('Created at or after this instant (ISO 8601).'),
  createdTo: z.iso.datetime({ offset: true }).optional().describe('Created before this instant (ISO 8601).'),
});
export type ListBalanceTransactionsQuery = z.output<typeof ListBalanceTransactionsQuery>;

export const StatementQuery = z
  .strictObject({
    asset: z.enum(ASSETS).default(DEFAULT_RAIL.token).describe('The balance to state (default USDT).'),
    from: z.iso.datetime({ offset: true }).describe('Start of the period, inclusive (ISO 8601).'),
    to: z.iso.datetime({ offset: true }).describe('End of the period, exclusive (ISO 8601).'),
  })
  .refine((q) => new Date(q.from) < new Date(q.to), { message: 'from must be before to', path: ['to'] });
export type StatementQuery = z.output<typeof StatementQuery>;
