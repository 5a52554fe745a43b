import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assetColumn, chainColumn, createdAt, mode, money, railChecks, tstz } from './columns';
import { tenants } from './tenants';
import { withdrawals } from './withdrawals';

/** PROCESSING until every item's withdrawal is final (COMPLETED or FAILED); then COMPLETED, whatever each item's end. */
export const PAYOUT_STATUSES = ['PROCESSING', 'COMPLETED'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** An item follows its withdrawal: PENDING while it is PENDING or PROCESSING, then COMPLETED or FAILED. */
export const PAYOUT_ITEM_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type PayoutItemStatus = (typeof PAYOUT_ITEM_STATUSES)[number];

/** A batch payout (issue 47): many withdrawals reserved together in one transaction, never half of them. */
export const payouts = pgTable(
  'payouts',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    status: text({ enum: PAYOUT_STATUSES }).notNull().default('PROCESSING'),
    itemCount: integer().notNull(),
    createdAt: createdAt(),
    completedAt: tstz(),
  },
  (t) => [
    /** GET /v1/payouts: a tenant's payouts of one mode, newest first. */
    index('payouts_tenant_created_idx').on(t.tenantId, t.mode, t.createdAt.desc()),
  ],
);

/** One recipient of a payout: its own withdrawal on its rail, and the tenant's reference for it. */
export const payoutItems = pgTable(
  'payout_items',
  {
    id: text().primaryKey(),
    payoutId: text()
      .notNull()
      .references(() => payouts.id),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    /** The item's position in the request, from 0. */
    position: integer().notNull(),
    /** The tenant's own id for the item: unique among its payouts (a retried item is refused, never paid twice). */
    reference: text().notNull(),
    withdrawalId: text()
      .notNull()
      .references(() => withdrawals.id),
    status: text({ enum: PAYOUT_ITEM_STATUSES }).notNull().default('PENDING'),
    chain: chainColumn(),
    token: assetColumn(),
    /**
     * The network fee finally charged, set when the item ends: the flat fee reserved at the debit, less the
     * network_fee_refund its completion credited (a batched item pays its share of the batch's cost); 0 when it
     * failed (everything was refunded). Null while it is open.
     */
    networkFee: money(),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payout_items_reference_uq').on(t.tenantId, t.mode, t.reference),
    uniqueIndex('payout_items_withdrawal_uq').on(t.withdrawalId),
    uniqueIndex('payout_items_position_uq').on(t.payoutId, t.position),
    /** The final hook's "is any item still open?" */
    index('payout_items_open_idx')
      .on(t.payoutId)
      .where(sql`${t.status} = 'PENDING'`),
    ...railChecks('payout_items', { chain: 'chain', asset: 'token' }),
  ],
);

export type Payout = typeof payouts.$inferSelect;
export type PayoutItem = typeof payoutItems.$inferSelect;
