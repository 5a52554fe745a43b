import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { assetColumn, createdAt, mode, money, railChecks, tstz } from './columns';
import { invoices } from './invoices';
import { tenants } from './tenants';

/**
 * Deferred settlements a sweep moves; heldFee is the part of their fee that goes with the net (absent on old plans: 0).
 * `charged`: the address held less than the sweep minimum and the sweep fee was taken (lib/settlements/plan-sweep.ts):
 * everything goes to the hot wallet in one transfer.
 */
export interface CarriedSettlements {
  ids: string[];
  fee: string;
  net: string;
  heldFee?: string;
  charged?: boolean;
}

/** An EVM sweep's plan (rows without `kind`): gas price and per-transfer gas limits of the top-up. */
export interface EvmSweepPlan {
  kind?: undefined;
  gasPrice: string;
  feeGas: string;
  custodyGas: string;
  carried?: CarriedSettlements;
}

/**
 * A TRON sweep's plan (lib/settlements/tron/plan-tron-sweep.ts): one USDT transfer of `units` to the hot wallet,
 * paid with `energy` (the estimate plus a margin) either delegated from the energy wallet's stake (`delegateSun`,
 * after staking `stakeSun` more) or burned by the deposit address from TRX the energy wallet sends it
 * (`feeMode: 'burn'`, only when the operator allows it). Sun amounts are decimal strings.
 */
export interface TronSweepPlan {
  kind: 'tron';
  feeMode: 'delegate' | 'burn';
  units: string;
  energy: number;
  /** Sun per energy unit when planned (getEnergyFee): the transfer's fee_limit is energy × this. */
  energySun: string;
  delegateSun: string;
  stakeSun: string;
  /**
   * What `stakeSun` is staked for: energy (absent), or BANDWIDTH for the energy wallet's own transactions
   * (activate, delegate, undelegate), which otherwise burn ~0.27 TRX each past its free 600 bytes a day.
   */
  stakeResource?: 'BANDWIDTH';
  /** TRX the deposit address must hold before its transfer: burn mode's energy and bandwidth, else bandwidth past its free allowance. */
  depositNeedsSun: string;
  carried?: CarriedSettlements;
}

/**
 * A Solana sweep's plan (lib/settlements/solana/): one transaction moving `units` from the deposit token account to
 * the hot wallet's, the gas wallet as fee payer. What it costs is in the signed transaction itself (settlement_txs,
 * stored with its `lastValidBlockHeight` before the broadcast), so the plan only fixes the amount and what it carries.
 */
export interface SolanaSweepPlan {
  kind: 'solana';
  units: string;
  carried?: CarriedSettlements;
}

/** Fixed before the first transaction of a sweep, reused on resume: how it is paid for, and the deferred settlements it carries. */
export type SweepPlan = EvmSweepPlan | TronSweepPlan | SolanaSweepPlan;

export const SETTLEMENT_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;

/** On-chain steps of a sweep (settlement_txs.step). */
export const SETTLEMENT_STEPS = ['gas_topup', 'fee', 'custody', 'activate', 'stake', 'delegate', 'undelegate'] as const;
export type SettlementStep = (typeof SETTLEMENT_STEPS)[number];

/**
 * One sweep of confirmed transfers of an invoice to the fee and custody wallets.
 * kind `invoice` is the payout of a confirmed invoice; `extra` sweeps funds that
 * came later (late, partial-then-expired, or extra payments); `held_credit` and
 * `refund` sweep one held payment the merchant credited to its token's balance
 * or sent back (lib/settlements/create-held-payment-settlements.ts).
 */
export const settlements = pgTable(
  'settlements',
  {
    id: text().primaryKey(),
    invoiceId: text()
      .notNull()
      .references(() => invoices.id),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    chainId: bigint({ mode: 'number' }).notNull(),
    /** Asset swept and credited (the invoice's token; a held payment's own for `held_credit` and `refund`). */
    token: assetColumn(),
    kind: text({ enum: ['invoice', 'extra', 'held_credit', 'refund'] }).notNull(),
    status: text({ enum: SETTLEMENT_STATUSES }).notNull().default('pending'),
    /** Sum of the swept transfers. */
    amount: money().notNull(),
    /** amount × tenant fee rate, rounded up to the token's 18 decimals (in the gateway's favour). */
    feeAmount: money().notNull(),
    netAmount: money().notNull(),
    /**
     * The part of feeAmount charged on money the merchant may give back (what arrived above the price, or
     * any payment of an unpaid invoice): swept to the hot wallet with the net instead of to the fee wallet,
     * so that a refund can return it (ledger `invoice_fee_refund`). Until then it is the gateway's, held
     * in the hot wallet.
     */
    heldFee: money().notNull().default('0'),
    /**
     * The network's sweep fee, when the deposit address held less than the sweep minimum and was swept anyway
     * (lib/settlements/plan-sweep.ts): part of feeAmount, taken from what the sweep moved, never returned by a refund.
     */
    sweepFee: money().notNull().default('0'),
    /** Gas price (wei) and per-step gas limits fixed at the top-up, reused on resume. */
    gasPlan: jsonb().$type<SweepPlan>(),
    /**
     * Finished without an on-chain sweep: the deposit address held too little to sweep, so its tokens stay
     * there until a later sweep of the same address carries them (carriedBy). Rows from before issue 42 were
     * credited at once; newer ones are `uncollected` until carried.
     */
    sweepDeferred: boolean().notNull().default(false),
    /**
     * Not credited: the address held no more than the network's sweep fee, so collecting it would cost more
     * than it brings (docs/withdrawals.md, "Credited once swept"). The sweep that carries it credits it.
     */
    uncollected: boolean().notNull().default(false),
    /** The settlement whose sweep moved this deferred settlement's tokens. */
    carriedBy: text(),
    /**
     * Started before the payments it sweeps were irreversible (TRON: in a block, not yet solidified; issue 44).
     * Credited only once its custody transfer is solidified and its transfers are still recorded at or below the
     * solidified block (finishSettlement's gate); a reorg that takes a payment away leaves it uncredited.
     */
    sweptEarly: boolean().notNull().default(false),
    /**
     * A TRON sweep waiting for the energy wallet's stake (issue 44): when it was first told to wait, kept through
     * later failed attempts, cleared when its plan is stored or it fails for good. Its place in the fair stake queue
     * (lib/settlements/tron/stake-queue.ts), never read from last_error, which only says why.
     */
    stakeWaitSince: tstz(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: tstz().notNull().defaultNow(),
    /** A worker holds it until then; a crashed worker's claim lapses. */
    lockedUntil: tstz(),
    lastError: text(),
    createdAt: createdAt(),
    completedAt: tstz(),
  },
  (t) => [
    /** Settle job: claimable settlements by due time. */
    index('settlements_due_idx')
      .on(t.chainId, t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'processing')`),
    /** One active settlement per invoice: the deposit address has a single sender at a time. */
    uniqueIndex('settlements_active_invoice_uq')
      .on(t.invoiceId)
      .where(sql`${t.status} in ('pending', 'processing')`),
    /** Invoice detail: its settlements. */
    index('settlements_invoice_idx').on(t.invoiceId),
    /** Solvency: credited dust still on its deposit address (read from the chain as part of "held"). */
    index('settlements_deferred_idx')
      .on(t.chainId)
      .where(sql`${t.sweepDeferred} and ${t.carriedBy} is null`),
    ...railChecks('settlements', { asset: 'token' }),
  ],
);

/**
 * Every on-chain step of a settlement, written with its nonce, hash and signed
 * bytes before broadcast, so a resumed settlement rebroadcasts or checks the
 * same transaction instead of sending a second one.
 */
export const settlementTxs = pgTable(
  'settlement_txs',
  {
    id: text().primaryKey(),
    settlementId: text()
      .notNull()
      .references(() => settlements.id),
    /** EVM: gas_topup, fee, custody. TRON: activate, stake, delegate, gas_topup (TRX, burn mode), custody, undelegate. Solana: custody. */
    step: text({ enum: SETTLEMENT_STEPS }).notNull(),
    chainId: bigint({ mode: 'number' }).notNull(),
    fromAddress: text().notNull(),
    toAddress: text().notNull(),
    /** EVM only: TRON has no nonces (a reference block and an expiration instead). */
    nonce: integer(),
    /** EVM: keccak of the raw bytes. TRON: the txID, sha256(raw_data), without 0x. Solana: the fee payer's signature (Base58). */
    txHash: text().notNull(),
    /** EVM: the signed RLP hex. TRON: the signed transaction as JSON (broadcast as is). Solana: the base64 wire transaction. */
    rawTx: text().notNull(),
    /** TRON: after this no block can include it (re-signed only once isSafelyExpired proves it never landed). */
    expiresAt: tstz(),
    /** TRON: the block its TaPoS references (only later blocks can hold it). */
    refBlockNumber: bigint({ mode: 'number' }),
    /**
     * Solana: the block height after which its blockhash is no longer accepted; once the finalized height is past it
     * and the node has no status for it, it never landed and may be replaced (judgeSentTransaction).
     */
    lastValidBlockHeight: bigint({ mode: 'number' }),
    /**
     * TRON: earlier txIDs of this step: proven expired unmined, or final and failed, before it was signed again; for
     * stake and delegate also one that landed and was followed by more (a failed transfer planned again).
     */
    replacedTxHashes: text().array(),
    /** Wei (sun on TRON) for gas_topup, stake, delegate and undelegate; token base units for fee and custody. */
    value: text().notNull(),
    /** `skipped`: recorded, then judged not needed (its effect was on chain already, e.g. the account activated by someone else). */
    status: text({ enum: ['signed', 'confirmed', 'skipped'] })
      .notNull()
      .default('signed'),
    createdAt: createdAt(),
    confirmedAt: tstz(),
  },
  (t) => [
    /** Each step happens at most once per settlement. */
    uniqueIndex('settlement_txs_step_uq').on(t.settlementId, t.step),
    /** A sender's recorded transactions by nonce: the unmined ones below a waiting transaction are rebroadcast (fillNonceGap). */
    index('settlement_txs_sender_nonce_idx').on(t.chainId, t.fromAddress, t.nonce),
  ],
);

export type Settlement = typeof settlements.$inferSelect;
