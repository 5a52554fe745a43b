import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, money, tstz } from './columns';
import { invoices } from './invoices';
import { subscriptions } from './subscriptions';

/**
 * A subscription's automatic collection (issue 48 §2): the payer's permission on the network's collector contract
 * (lib/chain/evm/collector/SubscriptionCollector.sol), as the payer signed it. `canceled` when the payer took it back
 * (allowance set to zero or the permission revoked): the subscription goes on, paid by e-mailed invoice.
 */
export const subscriptionCollections = pgTable('subscription_collections', {
  subscriptionId: text()
    .primaryKey()
    .references(() => subscriptions.id),
  chainId: bigint({ mode: 'number' }).notNull(),
  /** The payer's wallet (lowercase 0x address). */
  payer: text().notNull(),
  /** The bytes32 id the payer authorized on the collector (lib/subscriptions/collect/permission-id.ts). */
  permissionId: text().notNull(),
  /** The cap per on-chain period the payer authorized, in token units (a decimal, never a float). */
  maxPerPeriod: money().notNull(),
  periodSeconds: integer().notNull(),
  startsAt: tstz().notNull(),
  status: text({ enum: ['active', 'canceled'] })
    .notNull()
    .default('active'),
  canceledAt: tstz(),
  /** Why it ended: 'approval revoked' (the payer's zero allowance or revoke). */
  cancelReason: text(),
  createdAt: createdAt(),
});

/**
 * `skipped`: not pulled (reason: approval revoked, insufficient balance…), the invoice e-mailed instead. `signed`:
 * recorded (the signed bytes) before broadcast; only ever rebroadcast, never signed again. `confirmed`: mined and
 * successful. `failed`: mined and reverted (the invoice e-mailed instead).
 */
export const COLLECTION_PULL_STATUSES = ['skipped', 'signed', 'confirmed', 'failed'] as const;
export type CollectionPullStatus = (typeof COLLECTION_PULL_STATUSES)[number];

/**
 * One automatic collection attempt per subscription period (the unique index: a second attempt of the same period
 * cannot be recorded, whatever runs concurrently or again). A pull is recorded here, signed, before it is broadcast.
 */
export const collectionPulls = pgTable(
  'collection_pulls',
  {
    id: text().primaryKey(),
    subscriptionId: text()
      .notNull()
      .references(() => subscriptions.id),
    periodStart: tstz().notNull(),
    invoiceId: text()
      .notNull()
      .references(() => invoices.id),
    status: text({ enum: COLLECTION_PULL_STATUSES }).notNull(),
    /** Why it was not pulled or failed: 'approval revoked', 'insufficient balance', 'insufficient allowance', 'period cap used', 'reverted'. */
    reason: text(),
    /** What is pulled: the invoice's amount, in token units. */
    amount: money().notNull(),
    /** The invoice's own deposit address (lowercase), the pull's destination. */
    depositAddress: text().notNull(),
    chainId: bigint({ mode: 'number' }).notNull(),
    /** The operator (the gas wallet) and its pull: nonce, hash and signed bytes, set when recorded. */
    fromAddress: text(),
    nonce: integer(),
    txHash: text(),
    rawTx: text(),
    /** The admin's setDepositAllowed of the deposit address, when the contract did not allow it yet. */
    allowFrom: text(),
    allowNonce: integer(),
    allowTxHash: text(),
    allowRawTx: text(),
    gasUsed: bigint({ mode: 'bigint' }),
    /**
     * TRON (no nonces, docs/tron.md §5): when the recorded pull can no longer be mined (ms precision) and its TaPoS
     * reference block; only once it is proven expired unmined is it signed again, the old txID kept in replaced_tx_hashes.
     */
    expiresAt: tstz(),
    refBlockNumber: bigint({ mode: 'number' }),
    replacedTxHashes: text().array(),
    /**
     * The gas of the pull and of the admin's allow, priced in the token (the merchant's cost, charged as a
     * pull_network_fee ledger entry with the credit of the pulled money); set when the pull is confirmed, null otherwise.
     */
    networkFee: money(),
    /** Errors of the resumes since it was recorded (a receipt not found, a node down); the last one. */
    lastError: text(),
    createdAt: createdAt(),
    confirmedAt: tstz(),
  },
  (t) => [
    uniqueIndex('collection_pulls_once_uq').on(t.subscriptionId, t.periodStart),
    uniqueIndex('collection_pulls_invoice_uq').on(t.invoiceId),
    /** Recorded pulls not finished: resumed first by the job. */
    index('collection_pulls_signed_idx')
      .on(t.createdAt)
      .where(sql`status = 'signed'`),
  ],
);

export type SubscriptionCollection = typeof subscriptionCollections.$inferSelect;
export type CollectionPull = typeof collectionPulls.$inferSelect;

/**
 * A payer's USDC set-up by signature (EIP-2612, docs/subscriptions.md#usdc-set-up-by-signature-eip-2612): the
 * operator's `permitAndAuthorize` with the payer's two signatures, recorded signed before it is broadcast. One per
 * consent: the unique index on (chain, payer, the Authorize's collector nonce) refuses a second transaction for the
 * same signed pair, whether replayed or sent twice at once; a reverted one (`failed`) leaves the nonce unused on chain,
 * so it no longer holds the index. `network_fee` (its gas priced in the token) is charged to the merchant with the
 * next credit of the subscription's money (pull-fee-entries.ts).
 */
export const collectionSetups = pgTable(
  'collection_setups',
  {
    id: text().primaryKey(),
    subscriptionId: text()
      .notNull()
      .references(() => subscriptions.id),
    chainId: bigint({ mode: 'number' }).notNull(),
    /** The payer's wallet (lowercase 0x address). */
    payer: text().notNull(),
    /** The payer's nonce on the collector the Authorize signature uses (a decimal string: uint256). */
    collectorNonce: text().notNull(),
    /** The Authorize signature (0x, 65 bytes): a replayed submission is found by it. */
    authorizeSignature: text().notNull(),
    status: text({ enum: ['signed', 'confirmed', 'failed'] }).notNull(),
    fromAddress: text().notNull(),
    nonce: integer().notNull(),
    txHash: text().notNull(),
    rawTx: text().notNull(),
    gasUsed: bigint({ mode: 'bigint' }),
    networkFee: money(),
    lastError: text(),
    createdAt: createdAt(),
    confirmedAt: tstz(),
  },
  (t) => [
    uniqueIndex('collection_setups_consent_uq')
      .on(t.chainId, t.payer, t.collectorNonce)
      .where(sql`status <> 'failed'`),
    index('collection_setups_subscription_idx').on(t.subscriptionId),
    /** Recorded set-ups not finished: resumed by the collection job (they hold a gas wallet nonce). */
    index('collection_setups_signed_idx')
      .on(t.createdAt)
      .where(sql`status = 'signed'`),
  ],
);

export type CollectionSetup = typeof collectionSetups.$inferSelect;
