import { bigint, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { chainColumn, createdAt, mode, money, railChecks, tstz } from './columns';

/** One run of the solvency job (lib/solvency): every enabled network of every mode, read at a stated block each. */
export const solvencyRuns = pgTable(
  'solvency_runs',
  {
    id: text().primaryKey(),
    /** ok: every line read and covered; shortfall: some line's difference < 0 (or a gas wallet under its floor); error: some read failed. */
    status: text({ enum: ['ok', 'shortfall', 'error'] }).notNull(),
    startedAt: tstz().notNull(),
    finishedAt: tstz().notNull(),
    /** The first failed read, without RPC URLs. */
    error: text(),
    /**
     * Per mode and token, ledger amounts no enabled network's line counts: entries not caused by a
     * settlement or withdrawal (manual adjustments) or tied to a network no longer enabled.
     */
    unattributed: jsonb().$type<{ mode: string; asset: string; amount: string }[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    /** Latest run and history, newest first; retention deletes by age. */
    index('solvency_runs_created_idx').on(t.createdAt.desc()),
  ],
);

/** One address that makes up "held" (the console's drill-down). */
export interface SolvencyHolding {
  address: string;
  /** hot: the network's hot wallet; deposit: a deposit address with credited dust, a held payment or a sweep in flight; gas: the gas wallet. */
  role: 'hot' | 'deposit' | 'gas';
  amount: string;
}

/** What "owed" is made of (decimal strings). */
export interface SolvencyOwed {
  /** Tenant balances attributed to this network: the sum of ledger entries whose settlement or withdrawal is on it. */
  balances: string;
  /** Withdrawals debited whose transfer is not mined at the line's block. */
  withdrawalsInFlight: string;
  /** Held payments not yet credited (less a fee their sweep already moved). */
  heldPayments: string;
}

/**
 * One line of a run: a token on a network of a mode (kind `token`: held on chain against owed), or that
 * network's gas wallet (kind `gas`: native coin against the network's floor). held and difference are
 * null when the read failed (status error): a failed read is never a zero.
 */
export const solvencyLines = pgTable(
  'solvency_lines',
  {
    runId: text()
      .notNull()
      .references(() => solvencyRuns.id, { onDelete: 'cascade' }),
    kind: text({ enum: ['token', 'gas'] }).notNull(),
    mode: mode(),
    chain: chainColumn(),
    chainId: bigint({ mode: 'number' }).notNull(),
    /** The token (USDT, USDC) or, for gas lines, the native coin (BNB, ETH, POL). */
    asset: text().notNull(),
    status: text({ enum: ['ok', 'shortfall', 'error'] }).notNull(),
    /** Every chain read of the line was made at this block. */
    blockNumber: bigint({ mode: 'number' }),
    held: money(),
    /** Token lines: what tenants and payers are owed here; gas lines: the floor. */
    owed: money().notNull(),
    /** held − owed: negative is a shortfall. */
    difference: money(),
    owedParts: jsonb().$type<SolvencyOwed>(),
    holdings: jsonb().$type<SolvencyHolding[]>(),
    error: text(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.kind, t.mode, t.chain, t.asset] }),
    /** History of one line (sparkline). */
    index('solvency_lines_key_idx').on(t.kind, t.mode, t.chain, t.asset),
    ...railChecks('solvency_lines', { chain: 'chain' }),
  ],
);

export type SolvencyRun = typeof solvencyRuns.$inferSelect;
export type SolvencyLine = typeof solvencyLines.$inferSelect;
