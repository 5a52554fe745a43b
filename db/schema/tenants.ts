import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, rate, tstz } from './columns';

export const tenants = pgTable('tenants', {
  id: text().primaryKey(),
  name: text().notNull(),
  /** URL name of the public store page (/store/<slug>). */
  slug: text().notNull().unique(),
  /** Fraction of each settled invoice kept by the gateway. */
  invoiceFeeRate: rate().notNull().default('0.01'),
  /** Fraction of each internal withdrawal charged on top of the amount. */
  withdrawalFeeRate: rate().notNull().default('0.01'),
  status: text({ enum: ['active', 'suspended'] })
    .notNull()
    .default('active'),
  createdAt: createdAt(),
  updatedAt: tstz().notNull().defaultNow(),
});

export type Tenant = typeof tenants.$inferSelect;
