import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { assetColumn, chainColumn, createdAt, mode, money, railChecks, tstz } from './columns';
import { invoices } from './invoices';
import { tenants } from './tenants';
import { withdrawalBatches } from './withdrawal-batches';

export const WITHDRAWAL_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const withdrawals = pgTable(
  'withdrawals',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    /** internal: USDT to an external address; exchange: USDT to an exchange order's deposit address. */
    kind: text({ enum: ['internal', 'exchange'] })
      .notNull()
      .default('internal'),
    amount: money().notNull(),
    /** internal: amount × the tenant's withdrawal fee rate, debited on top; exchange: the exchange's fee. */
    feeAmount: money().notNull(),
    /** What leaves the hot wallet on chain. */
    netAmount: money().notNull(),
    status: text({ enum: WITHDRAWAL_STATUSES }).notNull().default('PENDING'),
    destinationAddress: text().notNull(),
    chainId: bigint({ mode: 'number' }).notNull(),
    /** The rail paid on (wire names): the lane of chainId sends `token`'s contract; the ledger debit is in `token`. */
    chain: chainColumn(),
    token: assetColumn(),
    postBackUrl: text(),
    /** Refunds (issue 19): the invoice whose received USDT this withdrawal gives back; also in metadata.refundOfInvoiceId. */
    refundOfInvoiceId: text().references(() => invoices.id),
    /** Exchange withdrawals: exchangeOrderId, exchangeToken, fromCurrency, toCurrency, ... (strings). */
    metadata: jsonb().$type<Record<string, string>>(),
    /** Why a withdrawal waits: PENDING (hot wallet short of USDT or BNB) or PROCESSING (chain unreadable, transaction not found yet); null when nothing is in the way. */
    pendingReason: text(),
    failureReason: text(),
    /** Hot wallet nonce reserved for this transfer; kept across re-broadcasts (same nonce, higher gas). Null on TRON (no nonces). */
    nonce: integer(),
    /** The signed raw transaction (TRON: the signed transaction's JSON), stored before broadcast so a restart re-sends exactly it. */
    signedTx: text(),
    txHash: text(),
    /**
     * Every earlier signature of this withdrawal: replaced ones of the same nonce (higher gas price) and those
     * of a nonce given up after it was proven used by another transaction. Tracking looks for receipts of all of them.
     */
    replacedTxHashes: text().array().notNull().default([]),
    /**
     * Head block of the node that first showed the nonce used while none of this withdrawal's
     * transactions had a receipt. Re-signing under a new nonce waits until a node whose head is
     * the network's confirmations past this block still finds none of them (docs/withdrawals.md).
     */
    nonceUsedAtBlock: bigint({ mode: 'number' }),
    /**
     * TRON (no nonces, docs/tron.md §5): the signed transaction's expiration (ms since the epoch) and the block its
     * TaPoS references. Only blocks after that one and not later than the expiration can hold it; it is re-signed
     * only once the solidified chain is past the expiration without it (isSafelyExpired). Null on EVM networks.
     */
    txExpiration: bigint({ mode: 'number' }),
    refBlockNumber: bigint({ mode: 'number' }),
    /** A batch payout's item (issue 47): on a network with a disperse contract it is sent in a batch with others. */
    batchable: boolean().notNull().default(false),
    /** The batch transaction that carries it (its nonce, bytes and hashes are the batch's); null when sent alone. */
    batchId: text().references(() => withdrawalBatches.id),
    /** Gas price (wei) of the signed transaction, raised when a stuck transaction is replaced. */
    gasPrice: bigint({ mode: 'bigint' }),
    broadcastAt: tstz(),
    confirmedAt: tstz(),
    sendAttempts: integer().notNull().default(0),
    /** Next time the sender looks at this withdrawal (retry back-off for PENDING with a reason). */
    nextAttemptAt: tstz().notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [
    /** An invoice's refunds: what it already gave back (the refundable amount) and GET /v1/invoices/:id/refunds. */
    index('withdrawals_refund_of_invoice_idx')
      .on(t.refundOfInvoiceId)
      .where(sql`${t.refundOfInvoiceId} is not null`),
    /** GET /v1/withdrawals: a tenant's withdrawals of one mode, newest first. */
    index('withdrawals_tenant_created_idx').on(t.tenantId, t.mode, t.createdAt.desc()),
    /** The sender: open withdrawals of a chain by due time. */
    index('withdrawals_open_idx')
      .on(t.chainId, t.nextAttemptAt)
      .where(sql`${t.status} in ('PENDING', 'PROCESSING')`),
    /** Balance "pending": open withdrawals of a tenant and mode. */
    index('withdrawals_tenant_open_idx')
      .on(t.tenantId, t.mode)
      .where(sql`${t.status} in ('PENDING', 'PROCESSING')`),
    ...railChecks('withdrawals', { chain: 'chain', asset: 'token' }),
  ],
);

export type Withdrawal = typeof withdrawals.$inferSelect;
