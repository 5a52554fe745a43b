import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assetColumn, chainColumn, createdAt, exchangeRate, mode, money, railChecks, tstz } from './columns';
import { invoices } from './invoices';
import { plans } from './plans';
import { tenants } from './tenants';

/** trialing → active → past_due → canceled (past_due goes back to active when its invoice is paid). */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * A customer's subscription to a plan (issue 48), billed by e-mailed invoice each period on its rail
 * (or, with automatic collection set up on an EVM rail, pulled from the payer's wallet: lib/subscriptions/collect). The billing job (lib/subscriptions/run-billing.ts)
 * moves it along; only it and the cancel call change `status`.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    planId: text()
      .notNull()
      .references(() => plans.id),
    customerEmail: text().notNull(),
    /** The rail each period's invoice is on (the plan's token; the customer's network). */
    chain: chainColumn(),
    token: assetColumn(),
    status: text({ enum: SUBSCRIPTION_STATUSES }).notNull(),
    /** Paid periods are counted from here (anchor + n intervals), so month ends do not drift (Jan 31 → Feb 28 → Mar 31). */
    billingAnchor: tstz().notNull(),
    /** The current period's number from the anchor (0 = first paid period); -1 while trialing. */
    periodNumber: integer().notNull(),
    currentPeriodStart: tstz().notNull(),
    currentPeriodEnd: tstz().notNull(),
    /** The subscription ends at currentPeriodEnd instead of renewing. */
    cancelAtPeriodEnd: boolean().notNull().default(false),
    canceledAt: tstz(),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    /** GET /v1/subscriptions: a tenant's subscriptions of one mode, newest first. */
    index('subscriptions_tenant_mode_created_idx').on(t.tenantId, t.mode, t.createdAt.desc(), t.id.desc()),
    /** The billing job: subscriptions still running, by the end of their period. */
    index('subscriptions_due_idx')
      .on(t.currentPeriodEnd)
      .where(sql`status <> 'canceled'`),
    ...railChecks('subscriptions', { chain: 'chain', asset: 'token' }),
  ],
);

/**
 * One billed period of a subscription and its invoice. The unique index on (subscription, period start) is what makes
 * billing exactly once: a second worker's insert of the same period conflicts and creates nothing (its invoice with it,
 * in the same transaction).
 */
export const subscriptionPeriods = pgTable(
  'subscription_periods',
  {
    subscriptionId: text()
      .notNull()
      .references(() => subscriptions.id),
    periodNumber: integer().notNull(),
    periodStart: tstz().notNull(),
    periodEnd: tstz().notNull(),
    invoiceId: text()
      .notNull()
      .references(() => invoices.id),
    /** Unpaid after this instant the subscription is past_due; graceDays later it is canceled. */
    dueAt: tstz().notNull(),
    /** The period's invoice amount in the subscription's token (null on periods billed before it was recorded). */
    amount: money(),
    /** A fiat-priced plan's period: the price's currency and the rate (token per unit) it was converted at, from where, quoted when. */
    priceCurrency: text(),
    rate: exchangeRate(),
    rateSource: text(),
    rateAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('subscription_periods_once_uq').on(t.subscriptionId, t.periodStart),
    uniqueIndex('subscription_periods_invoice_uq').on(t.invoiceId),
  ],
);

export type Subscription = typeof subscriptions.$inferSelect;
export type SubscriptionPeriod = typeof subscriptionPeriods.$inferSelect;
