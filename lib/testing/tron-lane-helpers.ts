import { utils } from 'tronweb';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import type { TronRail } from './tron-rail';

/** A new TRON account nobody holds (Base58 `T…`). */
export const freshTronAddress = () => utils.accounts.generateAccount().address.base58;

/**
 * A payer's own wallet pays `units` of USDT to `to`: a new account, activated and given TRX for the energy its
 * transfer burns, then a TronWeb TRC-20 transfer (as TronLink sends one). Answers the payer's `T…` address.
 */
export async function payFromNewTronWallet(rail: Pick<TronRail, 'node'>, to: string, units: bigint): Promise<string> {
  const payer = utils.accounts.generateAccount();
  await rail.node.sendTrx(payer.address.base58, 200_000_000);
  await rail.node.mintUsdt(payer.address.base58, units);
  const usdt = await rail.node.tronWeb(payer.privateKey).contract().at(rail.node.usdt);
  await usdt.transfer(to, units.toString()).send();
  return payer.address.base58;
}

/** USDT base units `who` holds on the stand-in. */
export async function usdtOf(rail: TronRail, who: string): Promise<bigint> {
  const c = await rail.node.tronWeb(rail.node.keys.other.privateKey).contract().at(rail.node.usdt);
  return BigInt(String(await c.balanceOf(who).call()));
}

/** The ledger entries of one withdrawal, summed per kind (strings, as numeric). */
export async function ledgerOf(db: Db, withdrawalId: string): Promise<Record<string, string>> {
  const rows = rowsOf<{ kind: string; sum: string }>(
    await db.execute(sql`select kind, sum(amount)::text as sum from ledger_entries
      where reference_type = 'withdrawal' and reference_id = ${withdrawalId} group by kind`),
  );
  return Object.fromEntries(rows.map((r) => [r.kind, r.sum]));
}
