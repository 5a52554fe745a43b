import { boolean, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, money, percent, rate, tstz } from './columns';

export const tenants = pgTable('tenants', {
  id: text().primaryKey(),
  name: text().notNull(),
  /** URL name of the public store page (/store/<slug>). */
  slug: text().notNull().unique(),
  /** Fraction of each settled invoice kept by the gateway. */
  invoiceFeeRate: rate().notNull().default('0.01'),
  /** Fraction of each internal withdrawal charged on top of the amount. */
  withdrawalFeeRate: rate().notNull().default('0.01'),
  /**
   * Percent (0 to 5) a payment may fall short of an invoice and still count as paid. Copied onto each
   * invoice when it is created, so a later change does not move open invoices.
   */
  underpaymentTolerancePercent: percent().notNull().default('0'),
  /**
   * Refund an overpayment, once settled, to the address the payer proposes on the checkout without waiting for
   * the merchant (the 24 h limit and the approval threshold still apply). Off by default.
   */
  autoRefundOverpayments: boolean().notNull().default(false),
  /**
   * When the auto-refund policy was last switched on (null while off): payments first seen before it are never
   * refunded automatically, so switching the policy on does not make every old overpayment claimable.
   */
  autoRefundEnabledAt: tstz(),
  /** Seconds a safe proposal waits before the policy refunds it (the merchant can decline meanwhile). */
  autoRefundDelaySeconds: integer().notNull().default(3600),
  /**
   * Overpayments above this many times the invoice's price are left to the merchant, never auto-refunded
   * (also above autoRefundMaxAmount, whichever is lower).
   */
  autoRefundMaxMultiple: percent().notNull().default('10'),
  /** Overpayments above this amount (in the invoice's token, pegged to USD) are left to the merchant. */
  autoRefundMaxAmount: money().notNull().default('1000'),
  /**
   * Who pays the network fee of giving back money the merchant never kept (an overpayment, an unpaid
   * invoice's payments, a held payment sent back): `payer` (default) has it taken from what is sent back,
   * `merchant` pays it on top from the balance (lib/withdrawals/giveback-options.ts).
   */
  refundNetworkFeePayer: text({ enum: ['payer', 'merchant'] })
    .notNull()
    .default('payer'),
  /**
   * A payment in the invoice's token on another enabled network than the invoice's: `credit` counts it
   * like a correct payment (swept on the network it came on), `hold` keeps it apart for the merchant
   * (lib/payments/record-transfers.ts). Another token is always held.
   */
  /**
   * The rails (`CHAIN:TOKEN`) this tenant accepts besides BSC:USDT (always on, the spec's default), among those
   * the gateway enables; null: every enabled rail. Checked when an invoice is created.
   */
  rails: text().array(),
  wrongNetworkPolicy: text({ enum: ['credit', 'hold'] })
    .notNull()
    .default('credit'),
  status: text({ enum: ['active', 'suspended'] })
    .notNull()
    .default('active'),
  /**
   * The dated API version (lib/api/versions.ts) this tenant's requests and webhooks are rendered in unless a key,
   * an endpoint or the request's Gateway-Version header names another. createTenant sets the latest; tenants from
   * before versions were pinned to 2026-11-01 (migration 0047), the version before the held_payment.* rename. Only
   * moves forward (lib/tenants/upgrade-api-version.ts). No default: every writer chooses.
   */
  apiVersion: text().notNull(),
  createdAt: createdAt(),
  updatedAt: tstz().notNull().defaultNow(),
});

export type Tenant = typeof tenants.$inferSelect;
