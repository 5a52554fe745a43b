import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { batchShare } from '@/lib/withdrawals/batch-share';
import type { CollectorNetwork } from './collector-network';

/**
 * What a confirmed pull cost, in the invoice's token: the gas of its transactions (the operator's collect and the
 * admin's allow of the deposit address, as gas_spend recorded them from their receipts: wei on EVM, the TRX burned in
 * sun on TRON, as TRON sweeps record theirs) at the network's gas coin
 * price, rounded up to the cent: a batched withdrawal's pricing (lib/withdrawals/batch-share.ts) with one item.
 * Without a gas coin price, the network's flat transfer fee (`networkFee`), as an unpriced batch keeps it.
 */
export async function pricePullGas(tx: Db, net: CollectorNetwork, pullId: string, costDecimals: number): Promise<string> {
  const [row] = rowsOf<{ wei: string }>(
    await tx.execute(sql`select coalesce(sum(cost_wei), 0)::text as wei from gas_spend where chain_id = ${net.chainId} and reference_id = ${pullId}`),
  );
  const priced = batchShare({
    costWei: BigInt(row!.wei),
    itemCount: 1,
    gasCoinUsd: net.gasCoinUsd,
    nativeDecimals: costDecimals,
    setting: `${net.mode.toUpperCase()}_${net.chain ?? 'CHAIN'}`,
    coin: 'gas coin',
  });
  return (priced.share ?? new Decimal(net.networkFee ?? 0)).toFixed();
}
