import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, mode, money, tstz } from './columns';

/**
 * The owner's withdrawal controls of one tenant and mode (each mode has its
 * own balance, network and keys). No row = every control off. Changed only
 * from the owner's dashboard session, never by an API key.
 */
export const withdrawalControls = pgTable(
  'withdrawal_controls',
  {
    tenantId: text().notNull(),
    mode: mode(),
    /** When on, API withdrawals (every asset, and exchange) go only to active allow-list addresses. */
    allowlistEnabled: boolean().notNull().default(false),
    /** Hours a newly added address waits before it can be used. */
    coolingOffHours: integer().notNull().default(24),
    /** Rolling 24 h cap on withdrawal amounts when an API key asks; null = no limit. */
    dailyLimit: money(),
    /** API USDT withdrawals above this wait for the owner's approval; null = never. */
    approvalThreshold: money(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.mode] })],
);

/**
 * Allowed destination addresses: plain address strings (EVM addresses stored
 * lower-case, others as given), valid for any currency of the mode.
 */
export const withdrawalAllowlist = pgTable(
  'withdrawal_allowlist',
  {
    id: text().primaryKey(),
    tenantId: text().notNull(),
    mode: mode(),
    address: text().notNull(),
    label: text(),
    /** Usable from this time on: added + the cooling-off period at the time of adding. */
    activeAt: tstz().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    /** One entry per address; the withdrawal check looks an address up by it. */
    uniqueIndex('withdrawal_allowlist_address_idx').on(t.tenantId, t.mode, t.address),
    /** The dashboard list, newest first. */
    index('withdrawal_allowlist_tenant_idx').on(t.tenantId, t.mode, t.createdAt),
  ],
);

export type WithdrawalControls = typeof withdrawalControls.$inferSelect;
export type AllowlistEntry = typeof withdrawalAllowlist.$inferSelect;
