import { sql } from 'drizzle-orm';
import { CHAIN_SPECS, gasCoinOf } from '@/lib/config/rails';
import { formatUnits } from 'viem';
import { getNetworks, type Network } from '@/lib/chain/network';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import { MODES, type Mode } from '@/lib/mode';

/** The console's windows: the last day and the last thirty. */
export const COST_WINDOWS = [
  { key: '24h', hours: 24 },
  { key: '30d', hours: 720 },
] as const;

export interface CostWindow {
  /** Gas our transactions on this network paid (sweeps, their top-ups, withdrawals), in the gas coin. */
  gas: string;
  /** The same at the operator's reference price of the gas coin (`<MODE>_<CHAIN>_GAS_COIN_USD`); null without one. */
  gasUsd: string | null;
  /** Fees earned on this network, in its stablecoins (1 token = 1 USD): invoice fees less those refunded, withdrawal fees (percentage and network, less the network fee credited back to batched payout items), subscription pulls' gas charged. */
  feesEarned: string;
  invoiceFees: string;
  withdrawalFees: string;
  /** Subscription pulls' gas charged to merchants (pull_network_fee, and the USDC set-ups' setup_network_fee), so their gas is set against what paid for it. */
  pullFees: string;
  transactions: number;
}

export interface NetworkCostRow {
  mode: Mode;
  chain: Network['chain'];
  chainId: number;
  nativeCoin: string;
  windows: Record<(typeof COST_WINDOWS)[number]['key'], CostWindow>;
  /** Invoice fees on overpayments and late payments waiting in the hot wallet in case they are refunded (all time). */
  heldInvoiceFees: string;
}

/**
 * Per network of each mode: the gas the operator paid against the fees it earned there, over 24 h and
 * 30 days (issue 30 §4: every cost paid by whoever causes it, and the console shows whether it is). Gas
 * comes from gas_spend (one row per mined transaction of ours), fees from the settlements and withdrawals
 * of that network.
 */
export async function getNetworkCosts(db: Db, modes: readonly Mode[] = MODES, now = new Date()): Promise<NetworkCostRow[]> {
  const rows: NetworkCostRow[] = [];
  for (const net of modes.flatMap((m) => getNetworks(m))) {
    const windows = {} as NetworkCostRow['windows'];
    for (const w of COST_WINDOWS) windows[w.key] = await costWindow(db, net, new Date(now.getTime() - w.hours * 3_600_000));
    const [held] = rowsOf<{ held: string; returned: string }>(
      await db.execute(sql`
        select coalesce((select sum(held_fee) from settlements
                          where chain_id = ${net.chainId} and mode = ${net.mode} and status = 'completed'), 0)::text as held,
               coalesce((select sum(l.amount) from ledger_entries l join withdrawals w on w.id = l.reference_id
                          where l.kind = 'invoice_fee_refund' and w.chain_id = ${net.chainId} and w.mode = ${net.mode}
                            and w.status <> 'FAILED'), 0)::text as returned`),
    );
    rows.push({
      mode: net.mode,
      chain: net.chain,
      chainId: net.chainId,
      nativeCoin: gasCoinOf(net.chain),
      windows,
      heldInvoiceFees: formatAmount(Decimal.max(0, new Decimal(held!.held).minus(held!.returned))),
    });
  }
  return rows;
}

async function costWindow(db: Db, net: Network, since: Date): Promise<CostWindow> {
  const [r] = rowsOf<{ wei: string; txs: number; invoice: string; returned: string; withdrawal: string; pull: string }>(
    await db.execute(sql`
      select coalesce((select sum(cost_wei) from gas_spend
                        where chain_id = ${net.chainId} and mode = ${net.mode} and created_at >= ${since.toISOString()}::timestamptz), 0)::text as wei,
             (select count(*) from gas_spend
               where chain_id = ${net.chainId} and mode = ${net.mode} and created_at >= ${since.toISOString()}::timestamptz)::int as txs,
             coalesce((select sum(fee_amount) from settlements
                        where chain_id = ${net.chainId} and mode = ${net.mode} and status = 'completed'
                          and completed_at >= ${since.toISOString()}::timestamptz), 0)::text as invoice,
             coalesce((select sum(l.amount) from ledger_entries l join withdrawals w on w.id = l.reference_id
                        where l.kind = 'invoice_fee_refund' and w.chain_id = ${net.chainId} and w.mode = ${net.mode}
                          and w.status <> 'FAILED' and l.created_at >= ${since.toISOString()}::timestamptz), 0)::text as returned,
             (coalesce((select sum(fee_amount) from withdrawals
                         where chain_id = ${net.chainId} and mode = ${net.mode} and kind = 'internal' and status <> 'FAILED'
                           and created_at >= ${since.toISOString()}::timestamptz), 0)
              -- What batched payout items got back of their flat network fee (they pay their share of the batch's gas).
              - coalesce((select sum(l.amount) from ledger_entries l join withdrawals w on w.id = l.reference_id
                           where l.kind = 'network_fee_refund' and w.chain_id = ${net.chainId} and w.mode = ${net.mode}
                             and w.created_at >= ${since.toISOString()}::timestamptz), 0))::text as withdrawal,
             (coalesce((select -sum(l.amount) from ledger_entries l join collection_pulls p on p.id = split_part(l.reference_id, ':', 1)
                        where l.kind = 'pull_network_fee' and p.chain_id = ${net.chainId} and l.mode = ${net.mode}
                          and l.created_at >= ${since.toISOString()}::timestamptz), 0)
              -- The payer's USDC set-up by signature: its gas is charged the same way (setup_network_fee). Either may be charged
              -- in parts, the second on referring to <id>:<n> (lib/subscriptions/uncharged-gas.ts).
              + coalesce((select -sum(l.amount) from ledger_entries l join collection_setups c on c.id = split_part(l.reference_id, ':', 1)
                           where l.kind = 'setup_network_fee' and c.chain_id = ${net.chainId} and l.mode = ${net.mode}
                             and l.created_at >= ${since.toISOString()}::timestamptz), 0))::text as pull`),
  );
  // The gas coin's own base unit: wei on EVM networks, sun on TRON.
  const gas = formatUnits(BigInt(r!.wei), CHAIN_SPECS[net.chain].nativeDecimals);
  const invoiceFees = new Decimal(r!.invoice).minus(r!.returned);
  return {
    gas,
    gasUsd: net.gasCoinUsd ? new Decimal(gas).times(net.gasCoinUsd).toDecimalPlaces(2, Decimal.ROUND_UP).toFixed(2) : null,
    feesEarned: formatAmount(invoiceFees.plus(r!.withdrawal).plus(r!.pull)),
    invoiceFees: formatAmount(invoiceFees),
    withdrawalFees: formatAmount(r!.withdrawal),
    pullFees: formatAmount(r!.pull),
    transactions: Number(r!.txs),
  };
}
