import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { settlements, type CarriedSettlements, type Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';

export type Carried = CarriedSettlements;

/** The earlier deferred settlements of the invoice whose tokens are on this address, of this network and contract. */
async function deferredOf(db: Db, s: Settlement) {
  return db
    .select({
      id: settlements.id,
      fee: settlements.feeAmount,
      net: settlements.netAmount,
      heldFee: settlements.heldFee,
      uncollected: settlements.uncollected,
    })
    .from(settlements)
    .where(
      and(
        eq(settlements.invoiceId, s.invoiceId),
        // A deferred settlement elsewhere is carried by a sweep there.
        eq(settlements.chainId, s.chainId),
        eq(settlements.token, s.token),
        eq(settlements.sweepDeferred, true),
        isNull(settlements.carriedBy),
        ne(settlements.id, s.id),
      ),
    )
    .orderBy(asc(settlements.createdAt), asc(settlements.id));
}

function carriedOf(rows: Awaited<ReturnType<typeof deferredOf>>, charged: boolean): Carried {
  const sum = (k: 'fee' | 'net' | 'heldFee') => rows.reduce((t, d) => t.add(d[k]), new Decimal(0)).toFixed();
  return { ids: rows.map((d) => d.id), fee: sum('fee'), net: sum('net'), heldFee: sum('heldFee'), ...(charged ? { charged: true } : {}) };
}

/**
 * Whether and how a settlement's deposit address is swept (issue 42 §2: money is credited only once it reaches
 * the hot wallet). Decided once, before any transaction (a stored plan means it was decided to sweep), from the
 * address's token balance (`balanceOf`, the family's own read: ERC-20 or TRC-20; a failed read throws and the
 * settlement retries, it is never taken as 0):
 * - at least the network's sweep minimum: swept at the gateway's cost, as always;
 * - below it: swept at once if what it moves and is not credited yet covers the network's sweep fee and leaves at
 *   least a cent; the fee is taken from that money (this settlement's net first, then the carried ones'), added
 *   to their fee and recorded as `sweepFee`, in one transaction, so a resumed settlement never charges twice;
 *   the plan says `charged` (the EVM sweep then moves everything in one transfer);
 * - else (or with no sweep fee configured): null, left in place and not credited (finishSettlement's
 *   `uncollected`). A held payment's send-back is never left: its refusal up front (refundHeldPayment) made sure
 *   the fee leaves enough.
 * Either way the sweep carries the earlier deferred settlements of the invoice on this address.
 */
export async function planSweep(
  db: Db,
  net: { decimals: number; sweepMinimum?: string; sweepFee?: string },
  s: Settlement,
  balanceOf: () => Promise<bigint>,
): Promise<Carried | null> {
  if (s.gasPlan) return s.gasPlan.carried ?? { ids: [], fee: '0', net: '0', heldFee: '0' };
  // Charged on an earlier attempt that stopped before its plan was stored: the rows already carry the fee.
  if (new Decimal(s.sweepFee).gt(0)) return carriedOf(await deferredOf(db, s), true);
  const minimum = net.sweepMinimum ? parseUnits(net.sweepMinimum, net.decimals) : 0n;
  if (minimum === 0n || (await balanceOf()) >= minimum) return carriedOf(await deferredOf(db, s), false);

  const refund = s.kind === 'refund';
  if (net.sweepFee === undefined && !refund) return null;
  const fee = new Decimal(net.sweepFee ?? 0);
  const deferred = await deferredOf(db, s);
  // Only what is not credited yet pays: deferred rows from before this rule were credited already.
  const payers = [{ id: s.id, net: s.netAmount }, ...deferred.filter((d) => d.uncollected)];
  const collectable = payers.reduce((t, p) => t.add(p.net), new Decimal(0));
  if (!refund && collectable.minus(fee).lt('0.01')) return null;
  if (fee.gt(0)) {
    await db.transaction(async (tx) => {
      const [own] = await tx.select({ sweepFee: settlements.sweepFee }).from(settlements).where(eq(settlements.id, s.id)).for('update');
      // Another worker's attempt charged it meanwhile (its lease lapsed): never twice.
      if (new Decimal(own!.sweepFee).gt(0)) return;
      let left = fee;
      for (const p of payers) {
        const take = Decimal.min(left, p.net);
        if (take.lte(0)) continue;
        left = left.minus(take);
        const [row] = await tx.select().from(settlements).where(eq(settlements.id, p.id)).for('update');
        await tx
          .update(settlements)
          .set({
            feeAmount: new Decimal(row!.feeAmount).add(take).toFixed(),
            netAmount: new Decimal(row!.netAmount).minus(take).toFixed(),
            sweepFee: new Decimal(row!.sweepFee).add(take).toFixed(),
          })
          .where(eq(settlements.id, p.id));
      }
    });
  }
  return carriedOf(await deferredOf(db, s), true);
}
