import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assetColumn, chainColumn, createdAt, mode, money, railChecks, tstz } from './columns';
import { invoices } from './invoices';
import { settlements } from './settlements';
import { tenants } from './tenants';
import { withdrawals } from './withdrawals';

/** The watcher's position per mode and chain: every block up to lastBlock has been scanned. */
export const chainCursors = pgTable(
  'chain_cursors',
  {
    mode: mode(),
    chainId: bigint({ mode: 'number' }).notNull(),
    lastBlock: bigint({ mode: 'number' }).notNull(),
    lastBlockHash: text().notNull(),
    /** Timestamp of lastBlock: invoices expire against chain time the watcher has fully seen. */
    lastBlockTime: tstz().notNull(),
    /**
     * The highest block the chain itself holds irreversible, where the family has such a block (TRON's solidified
     * block); null on EVM networks, where confirmations alone decide. Nothing is swept above it.
     */
    finalBlock: bigint({ mode: 'number' }),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mode, t.chainId] })],
);

/** Hashes of recently scanned blocks: a changed hash means a reorg, found by comparison. */
export const chainBlocks = pgTable(
  'chain_blocks',
  {
    mode: mode(),
    chainId: bigint({ mode: 'number' }).notNull(),
    number: bigint({ mode: 'number' }).notNull(),
    hash: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.mode, t.chainId, t.number] })],
);

/** Token transfers to deposit addresses, as found on the canonical chain. */
export const chainTransfers = pgTable(
  'chain_transfers',
  {
    id: text().primaryKey(),
    mode: mode(),
    chainId: bigint({ mode: 'number' }).notNull(),
    txHash: text().notNull(),
    logIndex: integer().notNull(),
    blockNumber: bigint({ mode: 'number' }).notNull(),
    blockHash: text().notNull(),
    blockTime: tstz().notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    amount: money().notNull(),
    /** Asset of the token contract (USDT, USDC): the ledger currency it is credited in. */
    token: assetColumn(),
    invoiceId: text()
      .notNull()
      .references(() => invoices.id),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    /** Arrived after the invoice expired or was already confirmed: settled on its own. */
    late: boolean().notNull().default(false),
    /** Settlement that swept it; null until then. */
    settlementId: text().references(() => settlements.id),
    createdAt: createdAt(),
  },
  (t) => [
    /** Restart- and rescan-safe: one row per log, whatever happens. */
    uniqueIndex('chain_transfers_log_uq').on(t.chainId, t.txHash, t.logIndex),
    /** An invoice's payments in chain order. */
    index('chain_transfers_invoice_idx').on(t.invoiceId, t.blockNumber, t.logIndex),
    /** Reorg rollback and settlement fan-out: unsettled transfers of a chain by height. */
    index('chain_transfers_unsettled_idx')
      .on(t.chainId, t.blockNumber)
      .where(sql`${t.settlementId} is null`),
    ...railChecks('chain_transfers', { asset: 'token' }),
  ],
);

/** Next nonce per sending wallet shared by concurrent settlements (the gas wallet). */
export const walletNonces = pgTable(
  'wallet_nonces',
  {
    chainId: bigint({ mode: 'number' }).notNull(),
    address: text().notNull(),
    nextNonce: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

/**
 * A supported token sent to an open or past invoice's deposit address on
 * another enabled network than the invoice's, or a token that is not the
 * invoice's (USDC to a USDT invoice). Recorded apart from chain_transfers, so
 * nothing that counts an invoice's payments sees it; held for the merchant
 * (the money stays on the deposit address, whose key the gateway holds on every EVM chain).
 *
 * Held payments, in code, API and UI; the table keeps its first name `mismatched_payments` (and its index
 * and constraint names): drizzle-kit asks interactively whether a renamed table is a rename or a drop and
 * create, which a generated migration cannot answer, and raw SQL names the table as it is.
 */
export const heldPayments = pgTable(
  'mismatched_payments',
  {
    id: text().primaryKey(),
    mode: mode(),
    /** Where the money is: the network and token it was sent with. */
    chainId: bigint({ mode: 'number' }).notNull(),
    chain: chainColumn(),
    token: assetColumn(),
    tokenAddress: text().notNull(),
    txHash: text().notNull(),
    logIndex: integer().notNull(),
    blockNumber: bigint({ mode: 'number' }).notNull(),
    blockHash: text().notNull(),
    blockTime: tstz().notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    amount: money().notNull(),
    invoiceId: text()
      .notNull()
      .references(() => invoices.id),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    /**
     * network: right token, other network; token: other token (any network); screening: the sender is on the SDN
     * snapshot (lib/screening): held for a compliance user's review whatever the rail, never the merchant's to credit or send back.
     */
    mismatch: text({ enum: ['network', 'token', 'screening'] }).notNull(),
    /**
     * held until the merchant resolves it. credited: another network's payment counted towards the
     * invoice (a chain_transfers row now), or another token's credited to that token's balance once
     * its own sweep is done. refunding → refunded: swept, then sent back to refundAddress; refunded only
     * once that withdrawal completed (a failed one returns it to held with refundFailureReason).
     */
    // frozen: a screening hold a compliance user kept (never credited, never sent back).
    status: text({ enum: ['held', 'credited', 'refunding', 'refunded', 'frozen'] })
      .notNull()
      .default('held'),
    /** Set when the payment is swept by a settlement of its own (kind `mismatched` or `refund`), not with the invoice's payments. */
    sweep: text({ enum: ['credit', 'refund'] }),
    /** That settlement, once the fan-out created it (the deposit address has one sender at a time). */
    settlementId: text().references(() => settlements.id),
    /** Where a refund goes: the sender, as the chain shows it. */
    refundAddress: text(),
    /** The refund's withdrawal, created with the ledger credit when the sweep finishes (or at once when an earlier send-back's failed). */
    withdrawalId: text().references(() => withdrawals.id),
    /**
     * Why the last send-back failed (its withdrawal's reason): the payment went back to `held`, its money
     * now in the balance (settlementId stays set, so it is never swept again). Cleared by the next send-back.
     */
    refundFailureReason: text(),
    /**
     * Set when a reorg deeper than the confirmations dropped the payment's block after money moved on it
     * (its sweep, a ledger credit, a refund withdrawal): the row is kept, flagged for the merchant and the
     * console, instead of deleted. Stays set when the payment is mined again (then blockNumber/blockHash move).
     */
    reorgedAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    /** Rescan-safe: one row per log. */
    uniqueIndex('mismatched_payments_log_uq').on(t.chainId, t.txHash, t.logIndex),
    /** An invoice's held payments (invoice view, checkout). */
    index('mismatched_payments_invoice_idx').on(t.invoiceId, t.blockNumber),
    /** A finished withdrawal finds the held payment it sends back (lib/refunds/finish-held-payment-refund.ts, on every withdrawal). */
    index('mismatched_payments_withdrawal_idx')
      .on(t.withdrawalId)
      .where(sql`${t.withdrawalId} is not null`),
    /** Reorg rollback of a network. */
    index('mismatched_payments_chain_idx').on(t.mode, t.chainId, t.blockNumber),
    /** The console's held payments across tenants, newest first (lib/console/list-held-payments.ts). */
    index('mismatched_payments_held_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'held'`),
    /** The console's reorged payments (a reorg deeper than the confirmations under money that moved). */
    index('mismatched_payments_reorged_idx')
      .on(t.reorgedAt)
      .where(sql`${t.reorgedAt} is not null`),
    /** The fan-out: resolved payments waiting for their own sweep, per network. */
    index('mismatched_payments_sweep_idx')
      .on(t.mode, t.chainId, t.blockNumber)
      .where(sql`${t.sweep} is not null and ${t.settlementId} is null`),
    ...railChecks('mismatched_payments', { chain: 'chain', asset: 'token' }),
  ],
);

export type HeldPayment = typeof heldPayments.$inferSelect;
