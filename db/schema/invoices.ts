import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgSequence, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assetColumn, chainColumn, createdAt, exchangeRate, mode, money, percent, railChecks, tstz } from './columns';
import { paymentLinks } from './payment-links';
import { tenants } from './tenants';
import type { FiatCurrency } from '../../lib/config/rails';

export const INVOICE_STATUSES = [
  'PENDING',
  'DETECTED',
  'PARTIALLY_PAID',
  'OVERPAID',
  'CONFIRMED',
  'PROCESSING_PAYOUT',
  'PAID_OUT',
  'EXPIRED',
  'FAILED',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * HD index of the next deposit address. A sequence hands out each value once,
 * even to transactions that roll back, so an address is never reused.
 */
export const depositAddressIndexSeq = pgSequence('deposit_address_index_seq', { startWith: 0, minValue: 0 });

/**
 * Deposit addresses derived ahead of time by a background job (one EC
 * multiplication each), so creating an invoice only claims a row. Each row is
 * claimed once (deleted); its index came from the sequence, so never reused.
 */
export const depositAddressPool = pgTable(
  'deposit_address_pool',
  {
    /** Fingerprint of the mnemonic's branch (hash of its xpub), never the mnemonic. */
    keyId: text().notNull(),
    addressIndex: bigint({ mode: 'number' }).notNull(),
    /** EIP-55 checksummed (invoices store it lower-case; the event payload shows it checksummed). */
    address: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.addressIndex] }),
    /** Destination checks: an address still in the pool is a deposit address too (lib/destinations, on every withdrawal). */
    index('deposit_address_pool_address_idx').on(t.address),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    status: text({ enum: INVOICE_STATUSES }).notNull().default('PENDING'),
    chain: chainColumn(),
    token: assetColumn(),
    /** EVM chain id of the network the invoice was created on; jobs only touch their own network's invoices. */
    chainId: bigint({ mode: 'number' }).notNull(),
    /** Lower-case hex (the watcher matches log recipients as-is); shown EIP-55 checksummed. */
    depositAddress: text().notNull(),
    /**
     * sha256 (hex) of the payer's secret claim token: 128 random bits carried only by the checkout URL returned when
     * the invoice is created (and the payment link's redirect). Only a request carrying it may propose a refund
     * address (issue 30 §1). Null on invoices made before tokens existed: no payer proposals for those.
     */
    claimTokenHash: text(),
    /** m/44'/60'/0'/0/<addressIndex> of the mode's deposit mnemonic. */
    addressIndex: bigint({ mode: 'number' }).notNull(),
    amountExpected: money().notNull(),
    /** Sum of the canonical transfers to the deposit address, late ones included. */
    amountReceived: money().notNull().default('0'),
    /** Credited to the tenant balance so far (received minus fees, over all settlements). */
    amountCredited: money().notNull().default('0'),
    feeAmount: money().notNull().default('0'),
    /**
     * Received and left on the deposit address, not credited: the address held no more than its network's sweep
     * fee (lib/settlements/plan-sweep.ts). A later sweep of the address credits it and takes it off here.
     */
    amountUncollected: money().notNull().default('0'),
    /** The tenant's underpayment tolerance when the invoice was created (frozen: settings changes never reach open invoices). */
    underpaymentTolerancePercent: percent().notNull().default('0'),
    /** Paid within the tolerance: expected minus received, accepted as paid; 0 otherwise. */
    amountShortfall: money().notNull().default('0'),
    confirmationsRequired: integer().notNull(),
    externalId: text(),
    description: text(),
    /** Where the paid checkout sends the payer back (the merchant's order page); http(s) only, checked at creation. */
    returnUrl: text(),
    /** The payer's e-mail (issue 48): a receipt is e-mailed there once the payment is confirmed; null: no receipt. */
    customerEmail: text(),
    metadata: jsonb().notNull().default({}),
    expiresAt: tstz().notNull(),
    /** Pay-in from another coin (issue 6): the currency and amount the customer sends to payinAddress at the exchange; null for direct USDT. */
    payinCurrency: text(),
    payinAmount: money(),
    /** The exchange's deposit address (shown as depositAddress); the USDT then arrives at depositAddress above. */
    payinAddress: text(),
    payinTag: text(),
    /** Last exchange order status the tracker saw. */
    payinStatus: text(),
    /**
     * Fiat-priced invoices (issue 19): the price as the merchant set it, and the rate locked at creation
     * (USDT per unit of priceCurrency) that gave amountExpected; null for invoices priced in USDT.
     */
    priceCurrency: text().$type<FiatCurrency>(),
    priceAmount: money(),
    rate: exchangeRate(),
    rateSource: text(),
    rateAt: tstz(),
    /** The payment link whose page created this invoice; null otherwise. */
    paymentLinkId: text().references(() => paymentLinks.id),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    /** Watcher: match Transfer recipients against every deposit address of a chain (late payments too). */
    uniqueIndex('invoices_chain_deposit_address_uq').on(t.chainId, t.depositAddress),
    /** Watcher of every network: a transfer to any invoice's deposit address, whichever network the invoice is on (held payments). */
    index('invoices_deposit_address_idx').on(t.depositAddress),
    /** Never two invoices on one HD index. */
    uniqueIndex('invoices_address_index_uq').on(t.addressIndex),
    /** GET /v1/invoices: a tenant's invoices of one mode, newest first. */
    index('invoices_tenant_mode_created_idx').on(t.tenantId, t.mode, t.createdAt.desc(), t.id.desc()),
    /** GET /v1/invoices?externalId=: lookup by the tenant's own reference. */
    index('invoices_tenant_mode_external_idx').on(t.tenantId, t.mode, t.externalId),
    /** Expiry job: unpaid invoices of a chain by deadline. */
    index('invoices_open_expiry_idx')
      .on(t.chainId, t.expiresAt)
      .where(sql`${t.status} in ('PENDING', 'PARTIALLY_PAID')`),
    /** A payment link's invoices: its paid count, its open-invoice cap and GET /v1/invoices?paymentLinkId=. */
    index('invoices_payment_link_idx')
      .on(t.paymentLinkId, t.status)
      .where(sql`${t.paymentLinkId} is not null`),
    /** Confirmation pass and settlement fan-out: the few invoices waiting for blocks or payout. */
    index('invoices_awaiting_idx')
      .on(t.chainId, t.status)
      .where(sql`${t.status} in ('DETECTED', 'OVERPAID', 'CONFIRMED')`),
    ...railChecks('invoices', { chain: 'chain', asset: 'token' }),
  ],
);

export type Invoice = typeof invoices.$inferSelect;
