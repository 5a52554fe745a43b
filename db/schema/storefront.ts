import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, mode, money, tstz } from './columns';
import { invoices } from './invoices';
import { tenants } from './tenants';

/** Storefront products; archived ones (active = false) stay for past orders. */
export const products = pgTable(
  'products',
  {
    id: text().primaryKey(),
    tenantId: text().notNull(),
    mode: mode(),
    name: text().notNull(),
    description: text(),
    /** Unit price in USDT. */
    price: money().notNull(),
    imageUrl: text(),
    active: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    /** Product lists (dashboard, /v1/products, the public store page): a tenant's products of one mode, newest first. */
    index('products_tenant_idx').on(t.tenantId, t.mode, t.createdAt.desc()),
  ],
);

export const ORDER_STATUSES = ['PENDING_PAYMENT', 'PAID', 'FULFILLED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface OrderItem {
  productId: string;
  name: string;
  unitPrice: string;
  quantity: number;
  amount: string;
}

export const orders = pgTable(
  'orders',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    status: text({ enum: ORDER_STATUSES }).notNull().default('PENDING_PAYMENT'),
    /** Snapshot of what was bought: later product edits do not change past orders. */
    items: jsonb().$type<OrderItem[]>().notNull(),
    total: money().notNull(),
    customerEmail: text().notNull(),
    /** The invoice the customer pays; its confirmation pays the order, its expiry cancels it. */
    invoiceId: text()
      .notNull()
      .references(() => invoices.id),
    /** cancelled_by_merchant | invoice_expired */
    cancelReason: text(),
    paidAt: tstz(),
    fulfilledAt: tstz(),
    cancelledAt: tstz(),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    /** Order lists of a tenant and mode, newest first (optionally by status). */
    index('orders_tenant_idx').on(t.tenantId, t.mode, t.createdAt.desc()),
    /** Invoice events find their order. */
    uniqueIndex('orders_invoice_uq').on(t.invoiceId),
    /** Dashboard filter of open orders. */
    index('orders_open_idx')
      .on(t.tenantId, t.mode)
      .where(sql`${t.status} in ('PENDING_PAYMENT', 'PAID')`),
  ],
);

export type Product = typeof products.$inferSelect;
export type Order = typeof orders.$inferSelect;

/**
 * Fixed one-minute windows counting order creations per bucket
 * (`addr:<client address>` for the public store page, `store:<tenant>:<mode>`
 * for every order of a store), shared by every app instance. Old windows are
 * pruned now and then by the throttle itself.
 */
export const storeOrderWindows = pgTable(
  'store_order_windows',
  {
    bucket: text().notNull(),
    windowStart: tstz().notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);
