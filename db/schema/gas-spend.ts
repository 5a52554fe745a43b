import { bigint, index, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, mode } from './columns';

/** Wei: whole numbers up to 2^256. */
const wei = () => numeric({ precision: 78, scale: 0 });

/**
 * Gas the operator paid, one row per mined transaction of ours (a sweep's gas top-up and its two
 * token transfers, a withdrawal's transfer), written when its receipt is read: gasUsed × the price it
 * paid. The console sets it against the fees earned on the same network (lib/console/get-network-costs.ts).
 */
export const gasSpend = pgTable(
  'gas_spend',
  {
    id: text().primaryKey(),
    mode: mode(),
    chainId: bigint({ mode: 'number' }).notNull(),
    kind: text({
      enum: [
        'sweep_gas_topup',
        'sweep_fee',
        'sweep_custody',
        'sweep_activate',
        'sweep_stake',
        'sweep_delegate',
        'sweep_undelegate',
        'withdrawal',
        'withdrawal_batch',
        'subscription_pull',
        'collector_allow',
        'collector_setup',
      ],
    }).notNull(),
    /** The settlement, withdrawal or withdrawal batch (payout items sent together) the transaction was for. */
    referenceId: text().notNull(),
    txHash: text().notNull(),
    /** Gas; on TRON the energy the transaction used (delegated or burned). */
    gasUsed: wei().notNull(),
    /** gasUsed × effective gas price, in the network's gas coin's base unit (wei; sun on TRON: the TRX the transaction burned). */
    costWei: wei().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    /** A receipt is counted once, however often it is read. */
    uniqueIndex('gas_spend_tx_uq').on(t.chainId, t.txHash),
    /** The console's windows per network. */
    index('gas_spend_chain_created_idx').on(t.chainId, t.createdAt),
  ],
);
