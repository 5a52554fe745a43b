import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { assetColumn, chainColumn, createdAt, mode, money, railChecks } from './columns';
import { tenants } from './tenants';
import { FIAT_CURRENCIES } from '../../lib/config/rails';

export const PLAN_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/**
 * A subscription plan (issue 48): what a subscriber pays each period, on which rail by default.
 * A plan is never edited in place: its subscriptions' periods are billed from these values, so a
 * change is a new plan (a plan change applies from the next period, without proration).
 */
export const plans = pgTable(
  'plans',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    name: text().notNull(),
    /**
     * Charged each period, in `token` (exact decimal, at most 2 places as invoices take it); for a fiat-priced plan,
     * in `priceCurrency`, converted at each period's billing (the rate is recorded on the period).
     */
    amount: money().notNull(),
    /** A fiat currency (EUR, ...) the plan is priced in, or null: priced in `token`. Only USDT plans (the fiat rates' quote asset). */
    priceCurrency: text({ enum: FIAT_CURRENCIES }),
    /** The default rail of its subscriptions: network and token. */
    chain: chainColumn(),
    token: assetColumn(),
    /** A period is `intervalCount` × `interval` (month and year end on the same day of month, clamped to its last day). */
    interval: text({ enum: PLAN_INTERVALS }).notNull(),
    intervalCount: integer().notNull().default(1),
    /** Days before the first paid period; 0 = billed at once. */
    trialDays: integer().notNull().default(0),
    /** Days after a period's invoice is due before an unpaid subscription is canceled. */
    graceDays: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    /** GET /v1/plans: a tenant's plans of one mode, newest first. */
    index('plans_tenant_mode_created_idx').on(t.tenantId, t.mode, t.createdAt.desc(), t.id.desc()),
    check('plans_amount_positive_ck', sql`${t.amount} > 0`),
    check('plans_counts_ck', sql`${t.intervalCount} >= 1 and ${t.trialDays} >= 0 and ${t.graceDays} >= 0`),
    ...railChecks('plans', { chain: 'chain', asset: 'token' }),
  ],
);

export type Plan = typeof plans.$inferSelect;
