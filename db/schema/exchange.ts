import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, mode, money, tstz } from './columns';
import { invoices } from './invoices';
import { tenants } from './tenants';
import { withdrawals } from './withdrawals';

export const EXCHANGE_ORDER_STATUSES = ['NEW', 'PENDING', 'EXCHANGE', 'WITHDRAW', 'DONE', 'EXPIRED', 'EMERGENCY'] as const;
export type ExchangeOrderStatus = (typeof EXCHANGE_ORDER_STATUSES)[number];

/**
 * Every order the gateway asks the exchange to create, recorded before the
 * `create` call so a lost answer is never followed by a blind second create.
 */
export const exchangeOrders = pgTable(
  'exchange_orders',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    /** withdrawal: funded from the balance; payin: an invoice paid in another coin; manual: created for the tenant, never funded by us. */
    purpose: text({ enum: ['withdrawal', 'payin', 'manual'] }).notNull(),
    /**
     * Our side of the create call. creating: asked, no answer yet; unknown: the answer was lost
     * (never funded, never re-created; an unfunded order expires at the exchange); failed: refused;
     * open: created and tracked; final: reached a final status; abandoned: created but not funded
     * (e.g. the balance changed between the check and the debit).
     */
    state: text({ enum: ['creating', 'unknown', 'failed', 'open', 'final', 'abandoned'] }).notNull(),
    withdrawalId: text().references(() => withdrawals.id),
    invoiceId: text().references(() => invoices.id),
    /** The exchange's order id and its query token (a secret: never logged, only shown to the tenant who owns it). */
    exchangeId: text(),
    token: text(),
    type: text({ enum: ['fixed', 'float'] }).notNull(),
    fromCcy: text().notNull(),
    toCcy: text().notNull(),
    direction: text({ enum: ['from', 'to'] }).notNull(),
    requestedAmount: money().notNull(),
    toAddress: text().notNull(),
    fromAmount: money(),
    toAmount: money(),
    depositAddress: text(),
    depositTag: text(),
    status: text({ enum: EXCHANGE_ORDER_STATUSES }),
    /** The last order object the exchange returned, as returned. */
    lastOrder: jsonb().$type<Record<string, unknown>>(),
    error: text(),
    /** Exchange's deadline for the deposit. */
    expiresAt: tstz(),
    /** When the tracker first saw a final status (DONE / EXPIRED past the grace); the bench compares it with the exchange's finish time. */
    recordedAt: tstz(),
    /** Tracker schedule: 0 = moving (deposit seen, or a hint that it moved), polled first; 1 = waiting. */
    priority: smallint().notNull().default(1),
    nextCheckAt: tstz(),
    checks: integer().notNull().default(0),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    /** One row per exchange order. */
    uniqueIndex('exchange_orders_exchange_id_uq')
      .on(t.exchangeId)
      .where(sql`${t.exchangeId} is not null`),
    /** The tracker: open orders by priority, then due time. */
    index('exchange_orders_due_idx')
      .on(t.priority, t.nextCheckAt)
      .where(sql`${t.state} = 'open'`),
    /** Invoice and withdrawal views find their order. */
    index('exchange_orders_invoice_idx')
      .on(t.invoiceId)
      .where(sql`${t.invoiceId} is not null`),
    index('exchange_orders_withdrawal_idx')
      .on(t.withdrawalId)
      .where(sql`${t.withdrawalId} is not null`),
    /** Operators: orders needing attention (EXPIRED / EMERGENCY) per tenant. */
    index('exchange_orders_tenant_status_idx').on(t.tenantId, t.mode, t.status),
  ],
);
export type ExchangeOrder = typeof exchangeOrders.$inferSelect;

/**
 * Weight spent against the exchange's per-key limit, one row per reservation,
 * shared by every process. Rows older than the window are pruned on each reservation.
 */
export const exchangeWeightSpends = pgTable(
  'exchange_weight_spends',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    /** sha256 of the exchange API key (the key itself is never stored). */
    keyHash: text().notNull(),
    /** The tenant whose request spent it (its fair share is counted from these); null for system work (tracker, shared lists). */
    tenantId: text(),
    weight: integer().notNull(),
    spentAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    /** Window sums and pruning per key. */
    index('exchange_weight_spends_key_time_idx').on(t.keyHash, t.spentAt),
  ],
);

/** The exchange answered 429: every process waits until blockedUntil; violations grow the back-off. */
export const exchangeRateBlocks = pgTable('exchange_rate_blocks', {
  keyHash: text().primaryKey(),
  blockedUntil: tstz().notNull(),
  violations: integer().notNull().default(0),
  updatedAt: tstz().notNull().defaultNow(),
});
