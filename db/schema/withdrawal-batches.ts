import { bigint, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { assetColumn, createdAt, mode, money, tstz } from './columns';

/**
 * One EVM transaction that pays several withdrawals (batch payout items, issue 47) through the network's disperse
 * contract. Written in the same transaction that records each item's signed transaction, before broadcast. Its
 * items share its nonce, signed bytes and hashes (withdrawals.batchId) and so its fate: mined, they complete
 * together; reverted, they fail together; its nonce taken by another transaction, they go back to the lane together.
 */
export const withdrawalBatches = pgTable('withdrawal_batches', {
  id: text().primaryKey(),
  mode: mode(),
  chainId: bigint({ mode: 'number' }).notNull(),
  token: assetColumn(),
  nonce: integer().notNull(),
  /** The current signature's hash (a stuck batch is re-signed under its nonce with a higher gas price). */
  txHash: text().notNull(),
  itemCount: integer().notNull(),
  /** The gas limit it was signed with (estimate + 20 %), kept for a replacement of the same call. */
  gasLimit: bigint({ mode: 'bigint' }).notNull(),
  gasPrice: bigint({ mode: 'bigint' }).notNull(),
  /** From its receipt: gas used and gasUsed × the price paid (wei); each item's share is costWei / itemCount. */
  gasUsed: numeric({ precision: 78, scale: 0 }),
  costWei: numeric({ precision: 78, scale: 0 }),
  /**
   * Each item's share of costWei in the token (lib/withdrawals/batch-share.ts: priced with the gas coin's USD price,
   * rounded up to the cent), set with the receipt. An item is charged it, never more than the flat network fee it
   * reserved; the difference is credited back when it completes. Null: not priced (pricingNote says why).
   */
  itemShare: money(),
  /** Why the batch could not be priced (no gas coin price, cost unknown): its items keep the flat network fee. */
  pricingNote: text(),
  createdAt: createdAt(),
  minedAt: tstz(),
});

export type WithdrawalBatch = typeof withdrawalBatches.$inferSelect;
