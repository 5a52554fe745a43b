import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assetColumn, chainColumn, createdAt, mode, money, railChecks, tstz } from './columns';
import { tenants } from './tenants';
import type { PriceCurrency } from '../../lib/config/rails';

/**
 * A reusable payment link (issue 19): a public page `/l/<slug>` where each
 * payer gets an invoice of their own. Either a fixed `amount`, or bounds the
 * payer's typed amount must fall within (`minAmount` to `maxAmount`), in
 * `currency` (USDT, or a fiat currency priced at a rate locked per invoice).
 */
export const paymentLinks = pgTable(
  'payment_links',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    /** The public part of the URL: random, unguessable, so a link cannot be found by counting. */
    slug: text().notNull(),
    name: text().notNull(),
    description: text(),
    /** Fixed price; null when the payer types the amount. */
    amount: money(),
    /** Bounds of a payer-typed amount (both set exactly when amount is null). */
    minAmount: money(),
    maxAmount: money(),
    /** The rail each payer's invoice is on: network and token (one of the tenant's accepted rails when the link was made). */
    chain: chainColumn(),
    token: assetColumn(),
    /** The token, or (USDT links) a fiat code (lib/invoices FIAT_CURRENCIES): each invoice then locks its own rate. No default: a link names its currency. */
    currency: text().$type<PriceCurrency>().notNull(),
    /** Quantity limit: the link stops taking payers once this many of its invoices are paid; null = no limit. */
    maxPayments: integer(),
    /** Minutes each payer's invoice stays payable. */
    invoiceExpiresInMinutes: integer().notNull().default(30),
    expiresAt: tstz(),
    /** Set by the merchant; a disabled link creates no invoice (its open invoices can still be paid). */
    disabledAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    /** The public page: a link by its slug. */
    uniqueIndex('payment_links_slug_uq').on(t.slug),
    /** GET /v1/payment-links and the dashboard list: a tenant's links of one mode, newest first. */
    index('payment_links_tenant_mode_created_idx').on(t.tenantId, t.mode, t.createdAt.desc(), t.id.desc()),
    ...railChecks('payment_links', { chain: 'chain', asset: 'token' }),
  ],
);

export type PaymentLink = typeof paymentLinks.$inferSelect;
