import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assetColumn, createdAt, mode, money, railChecks, tstz } from './columns';
import { tenants } from './tenants';

/** One balance per tenant, mode and currency; always equal to the sum of its ledger entries. */
export const balances = pgTable(
  'balances',
  {
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    currency: assetColumn(),
    available: money().notNull().default('0'),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.mode, t.currency] }), ...railChecks('balances', { asset: 'currency' })],
);

/** Append-only: credits positive, debits negative. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    currency: assetColumn(),
    amount: money().notNull(),
    /**
     * invoice_credit, withdrawal (what the recipient gets), withdrawal_fee (the percentage), network_fee (the
     * network's flat fee on a withdrawal or refund), invoice_fee_refund (the invoice fee given back with a
     * refund of money the merchant never kept), withdrawal_refund (a failed withdrawal's debit returned),
     * pull_network_fee (a subscription pull's gas, with the credit of the pulled money: lib/subscriptions/collect),
     * exchange_withdrawal, ...
     */
    kind: text().notNull(),
    referenceType: text().notNull(),
    referenceId: text().notNull(),
    balanceAfter: money().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    /** A record is credited or debited for a given reason at most once, whatever retries happen. */
    uniqueIndex('ledger_entries_kind_reference_uq').on(t.kind, t.referenceId),
    /** Statement of one tenant and mode, newest first. */
    index('ledger_entries_tenant_idx').on(t.tenantId, t.mode, t.createdAt),
    ...railChecks('ledger_entries', { asset: 'currency' }),
  ],
);
