import { and, eq, isNull, ne } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { settlements, type CarriedSettlements, type Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';

export type Carried = CarriedSettlements;

/**
 * Whether a settlement's deposit address is worth sweeping now. Decided once,
 * before any transaction (a stored plan means it was decided to sweep): the
 * address's token balance (`balanceOf`, the family's own read: ERC-20 or
 * TRC-20) — a failed read throws, the settlement retries, it is never taken
 * as 0 — against the network's sweep minimum. Below it: null
 * (credit without sweeping; dust sent to many addresses costs no gas). At or
 * above: the earlier deferred settlements of the invoice whose tokens this
 * sweep carries along.
 */
export async function planSweep(
  db: Db,
  net: { decimals: number; sweepMinimum?: string },
  s: Settlement,
  balanceOf: () => Promise<bigint>,
): Promise<Carried | null> {
  if (s.gasPlan) return s.gasPlan.carried ?? { ids: [], fee: '0', net: '0', heldFee: '0' };
  const minimum = net.sweepMinimum ? parseUnits(net.sweepMinimum, net.decimals) : 0n;
  if (minimum > 0n) {
    if ((await balanceOf()) < minimum) return null;
  }
  const deferred = await db
    .select({ id: settlements.id, fee: settlements.feeAmount, net: settlements.netAmount, heldFee: settlements.heldFee })
    .from(settlements)
    .where(
      and(
        eq(settlements.invoiceId, s.invoiceId),
        // Only tokens on this address of this network and contract: a deferred settlement elsewhere is carried by a sweep there.
        eq(settlements.chainId, s.chainId),
        eq(settlements.token, s.token),
        eq(settlements.sweepDeferred, true),
        isNull(settlements.carriedBy),
        ne(settlements.id, s.id),
      ),
    );
  return {
    ids: deferred.map((d) => d.id),
    fee: deferred.reduce((sum, d) => sum.add(d.fee), new Decimal(0)).toFixed(),
    net: deferred.reduce((sum, d) => sum.add(d.net), new Decimal(0)).toFixed(),
    heldFee: deferred.reduce((sum, d) => sum.add(d.heldFee), new Decimal(0)).toFixed(),
  };
}
