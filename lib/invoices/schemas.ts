import { z } from 'zod';
import { INVOICE_STATUSES } from '@/db/schema/invoices';
import { PageQuery, paged, Timestamp } from '@/lib/api/schemas';
import { ASSETS, DEFAULT_RAIL, FIAT_CURRENCIES, OFFERED_CHAINS, type FiatCurrency } from '@/lib/config/rails';
import { HeldPaymentEventData } from '@/lib/events/payloads';
import { amountString } from './amount';

export const InvoiceStatusSchema = z.enum(INVOICE_STATUSES, { error: () => `must be one of: ${INVOICE_STATUSES.join(', ')}` });

const METADATA_MAX_BYTES = 8192;

// The table lives with the rails (db/schema types columns with it); re-exported for the API's callers.
export { FIAT_CURRENCIES, type FiatCurrency };
const PRICE_CURRENCIES = [...ASSETS, ...FIAT_CURRENCIES] as const;

/** Absolute http(s) only: the checkout renders it as a link, so javascript: or data: URLs must never get there. */
const ReturnUrl = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL such as "https://shop.example/orders/42"');

/** An e-mail address, trimmed and lower-cased (it is a mailbox to send to, never an identity). */
export const CustomerEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'must be an e-mail address' }));

export const CreateInvoiceBody = z.strictObject({
  amount: amountString({ maxDecimals: 2, max: '1000000000', example: '100.50' }).describe(
    'The price in `currency` (USDT by default): a decimal string greater than 0 with at most 2 decimals, at most 1,000,000,000.',
  ),
  currency: z
    .enum(PRICE_CURRENCIES, { error: () => `must be one of: ${PRICE_CURRENCIES.join(', ')}` })
    .optional()
    .describe(
      "Currency of `amount`; default: the invoice's `token`, and then amount is what the customer pays. A fiat currency (USDT invoices only): the USDT expected is amount × the rate locked at creation (rounded to 2 decimals); the invoice shows priceCurrency, priceAmount, rate, rateSource and rateAt. 503 rate_unavailable when no fresh-enough rate is known.",
    ),
  externalId: z.string().trim().min(1).max(255).optional().describe('Your own reference (at most 255 characters); filterable.'),
  description: z.string().max(1000).optional().describe('Free text, at most 1,000 characters.'),
  returnUrl: ReturnUrl.optional().describe(
    'Extension: where the hosted checkout sends the payer once the invoice is paid (a "Back to <your name>" button beside the receipt), e.g. your order page. An absolute http(s) URL of at most 2,000 characters.',
  ),
  customerEmail: CustomerEmail.optional().describe(
    'Extension: the payer\'s e-mail. Once the payment is confirmed the gateway e-mails them a receipt (in test mode only to addresses the operator allows: docs/subscriptions.md, "E-mail").',
  ),
  metadata: z
    .record(z.string(), z.unknown(), { error: () => 'must be a JSON object' })
    .refine((m) => Buffer.byteLength(JSON.stringify(m)) <= METADATA_MAX_BYTES, `must be at most ${METADATA_MAX_BYTES} bytes as JSON`)
    .optional()
    .describe('Your key-value data, returned as given (a JSON object of at most 8 KB).'),
  chain: z
    .enum(OFFERED_CHAINS, { error: () => `must be one of: ${OFFERED_CHAINS.join(', ')}` })
    .default(DEFAULT_RAIL.chain)
    .describe(
      // From the list itself, so a network added (TRON, issue 45) is never missing from the reference.
      `Network the customer pays on: ${DEFAULT_RAIL.chain} (default), ${OFFERED_CHAINS.filter((c) => c !== DEFAULT_RAIL.chain)
        .join(', ')
        .replace(/, ([^,]+)$/, ' or $1')}, among the rails this gateway enables (docs/invoices.md "Rails").`,
    ),
  token: z
    .enum(ASSETS, { error: () => `must be one of: ${ASSETS.join(', ')}` })
    .default(DEFAULT_RAIL.token)
    .describe('USDT (default) or USDC; the payment credits your balance in this asset.'),
  expiresInMinutes: z
    .number({ error: () => 'must be an integer from 5 to 10080' })
    .int('must be an integer from 5 to 10080')
    .min(5, 'must be at least 5')
    .max(10_080, 'must be at most 10080 (7 days)')
    .default(30)
    .describe('Minutes until the invoice expires unpaid: 5 to 10,080, default 30.'),
  payinCurrency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{2,20}$/, 'must be a currency code from GET /v1/invoices/payin/currencies')
    .optional()
    .describe('Pay in another coin (e.g. BTC): the exchange converts it and you receive `amount` USDT. See docs/exchange.md.'),
});
export type CreateInvoiceInput = z.output<typeof CreateInvoiceBody>;

export const PaymentSchema = z.object({
  chain: z
    .enum(OFFERED_CHAINS)
    .describe("Extension: the network the payment came on (another than the invoice's when the wrong-network policy credited it)."),
  txHash: z.string(),
  logIndex: z.number().int(),
  amount: z.string(),
  blockNumber: z.number().int(),
  confirmations: z.number().int().describe('Blocks on top of the payment block on the canonical chain of its network (0 in the newest block).'),
  late: z.boolean().describe('Arrived after expiry or after the invoice was confirmed; settled on its own.'),
  createdAt: Timestamp,
});

export const InvoiceSchema = z
  .object({
    id: z.string(),
    status: InvoiceStatusSchema,
    chain: z.enum(OFFERED_CHAINS),
    token: z.enum(ASSETS),
    depositAddress: z.string().describe('EIP-55 checksummed address the customer pays to.'),
    amountExpected: z.string(),
    amountReceived: z.string(),
    amountCredited: z.string().describe('Credited to the balance so far: received minus fees, over every settlement.'),
    feeAmount: z.string(),
    amountUncollected: z
      .string()
      .optional()
      .describe(
        'Only when not zero: received but not credited, because collecting it from the deposit address would cost more than the network\'s sweep fee leaves (docs/withdrawals.md, "Credited once swept"). It stays on the address; a later payment there that makes it worth sweeping credits it.',
      ),
    underpaymentTolerancePercent: z
      .string()
      .describe('The tenant\'s underpayment tolerance in percent when the invoice was created ("0.5" = 0.5 %); frozen on the invoice.'),
    amountShortfall: z
      .string()
      .describe('USDT short of amountExpected that was accepted as paid under the tolerance ("0.00" when paid in full or not paid).'),
    confirmationsRequired: z.int().meta({ examples: [5] }),
    txHashes: z.array(z.string()),
    externalId: z.string().nullable(),
    description: z.string().nullable(),
    returnUrl: z.string().nullable().describe('Extension: where the paid checkout sends the payer back; null when not set.'),
    customerEmail: z.string().optional().describe("Extension, only when given at creation: the payer's e-mail, where the receipt goes."),
    metadata: z.record(z.string(), z.unknown()),
    expiresAt: Timestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    payinCurrency: z
      .string()
      .optional()
      .describe('Pay-in invoices only: the coin the customer pays in; depositAddress is then the exchange address in that coin.'),
    payinAmount: z.string().optional().describe('Pay-in invoices only: what the customer sends, in payinCurrency.'),
    payinTag: z.string().nullable().optional().describe('Pay-in invoices only: memo / destination tag the customer must add, if the coin needs one.'),
    payinStatus: z
      .string()
      .nullable()
      .optional()
      .describe('Pay-in invoices only: the exchange order status (NEW, PENDING, EXCHANGE, WITHDRAW, DONE, EXPIRED, EMERGENCY).'),
    priceCurrency: z.enum(FIAT_CURRENCIES).optional().describe('Fiat-priced invoices only: the currency `amount` was given in.'),
    priceAmount: z.string().optional().describe('Fiat-priced invoices only: the price in priceCurrency.'),
    rate: z
      .string()
      .optional()
      .describe('Fiat-priced invoices only: USDT per unit of priceCurrency, locked at creation; amountExpected = priceAmount × rate.'),
    rateSource: z.string().optional().describe('Fiat-priced invoices only: where the rate came from.'),
    rateAt: Timestamp.optional().describe('Fiat-priced invoices only: when the source quoted the rate.'),
    paymentLinkId: z.string().optional().describe("Invoices created on a payment link's page only: the link (see /v1/payment-links)."),
  })
  .meta({ id: 'Invoice' });
export type InvoiceView = z.infer<typeof InvoiceSchema>;

/** POST /v1/invoices: the invoice and, this once, the payer's checkout URL with its claim token. */
export const CreatedInvoiceSchema = InvoiceSchema.extend({
  checkoutUrl: z
    .string()
    .optional()
    .describe(
      "Shown once; carries the payer's secret claim token. The hosted checkout page (`/pay/<id>?claim=<token>`, absolute when the operator sets PUBLIC_BASE_URL): " +
        'give it to the payer only. With it the payer may give a refund address; without it (`/pay/<id>`) the page shows the payment but takes no refund address. ' +
        'Never returned again (GET, lists, webhooks, the dashboard); absent from an idempotent replay of this request. See docs/invoices.md#the-payers-claim-token.',
    ),
}).meta({ id: 'CreatedInvoice' });

export const InvoiceEventSchema = z.object({ id: z.string(), type: z.string(), status: z.string().nullable(), createdAt: Timestamp });

export const SettlementViewSchema = z.object({
  id: z.string(),
  kind: z
    .enum(['invoice', 'extra', 'held_credit', 'refund'])
    .describe(
      'invoice: the payout; extra: later payments; held_credit / refund: a held payment credited to its token or sent back (API versions before 2026-12-01 call held_credit `mismatched`).',
    ),
  status: z.enum(['pending', 'processing', 'completed', 'failed']),
  token: z.enum(ASSETS).describe('The token swept (a held payment may be in another token than the invoice).'),
  amount: z.string(),
  feeAmount: z.string(),
  netAmount: z.string(),
  txHashes: z.array(z.string()),
  createdAt: Timestamp,
  completedAt: Timestamp.nullable(),
});

export const InvoiceDetailSchema = InvoiceSchema.extend({
  payments: z.array(PaymentSchema),
  settlements: z.array(SettlementViewSchema),
  events: z.array(InvoiceEventSchema).describe('Event timeline, oldest first.'),
  heldPayments: z
    .array(HeldPaymentEventData)
    .describe(
      'Extension: supported tokens sent to the deposit address on another network or in another token than the invoice\'s; held, not counted in amountReceived (docs/invoices.md "Held payments").',
    ),
  // Its old name mismatchedPayments is returned only to API versions before 2026-12-01 (lib/api/versions.ts).
}).meta({ id: 'InvoiceDetail' });

export const ListInvoicesQuery = PageQuery.extend({
  status: InvoiceStatusSchema.optional().describe('Only invoices in this status.'),
  externalId: z.string().min(1).max(255).optional().describe('Only invoices with this externalId.'),
  paymentLinkId: z.string().min(1).max(64).optional().describe('Only invoices created through this payment link.'),
  createdFrom: z.iso.datetime({ offset: true }).optional().describe('Created at or after this instant (ISO 8601).'),
  createdTo: z.iso.datetime({ offset: true }).optional().describe('Created before this instant (ISO 8601).'),
});

export const InvoiceListSchema = paged(InvoiceSchema);

export const PayInvoiceBody = z.strictObject({
  amount: amountString({ maxDecimals: 18, max: '1000000000', example: '100.50' }).describe('Test USDT to send, up to 18 decimals.'),
});

export const PayInvoiceResult = z.object({
  invoiceId: z.string(),
  txHash: z.string(),
  from: z.string(),
  to: z.string(),
  amount: z.string(),
});
