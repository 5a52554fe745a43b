import { and, eq, isNull, sql } from 'drizzle-orm';
import { chainCursors, chainTransfers, settlements, type Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { SettlementAbandoned } from './tron/settlement-abandoned';
import { SettlementWaiting } from './tron/settlement-waiting';

/**
 * What still backs an early settlement on the watcher's record: its own transfers, plus the invoice's unlinked
 * transfers on the same network (a payment the reorg took and the new branch holds again is recorded anew,
 * unlinked). Below the settlement's amount: its payments are gone.
 */
async function backing(db: Db, s: Settlement): Promise<Decimal> {
  const [row] = await db
    .select({ sum: sql<string | null>`sum(${chainTransfers.amount})::text` })
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.invoiceId, s.invoiceId),
        eq(chainTransfers.chainId, s.chainId),
        sql`(${chainTransfers.settlementId} = ${s.id} or ${chainTransfers.settlementId} is null)`,
      ),
    );
  return new Decimal(row?.sum ?? 0);
}

/**
 * Throws SettlementAbandoned when an early settlement's payments left the chain: called before anything is
 * planned or signed anew (at the start of an attempt with no custody transfer recorded, and before a custody
 * transfer that can never land as recorded is signed again), so nothing moves for a payment that is gone.
 */
export async function refuseOrphanedSweep(db: Db, s: Settlement): Promise<void> {
  if (!s.sweptEarly) return;
  if ((await backing(db, s)).lt(s.amount))
    throw new SettlementAbandoned(`its payment left the chain (reorg) before the sweep moved it: not credited`);
}

/** An abandoned settlement ends failed, uncredited, with no invoice event (revertTransfers moved the invoice back). */
export async function abandonSettlement(db: Db, id: string, reason: string) {
  await db
    .update(settlements)
    .set({ status: 'failed', lastError: reason.slice(0, 500), lockedUntil: null, stakeWaitSince: null })
    .where(and(eq(settlements.id, id), sql`${settlements.status} in ('pending', 'processing')`));
}

/**
 * The crediting gate of an early settlement, in finishSettlement's transaction (issue 44): its custody transfer is
 * solidified, and it is credited only if the transfers it sweeps are still recorded (locked here, so a concurrent
 * rollback waits) at or below the solidified block the watcher stored. Transfers the reorg removed and the watcher
 * recorded again from the new branch are adopted (same invoice and network, unlinked, solidified), in chain order,
 * when they make up the amount exactly. Otherwise it waits (SettlementWaiting): the watcher has not caught up.
 */
export async function requireFinalTransfers(tx: Db, s: Settlement): Promise<void> {
  if (!s.sweptEarly) return;
  const [cursor] = await tx
    .select({ final: chainCursors.finalBlock })
    .from(chainCursors)
    .where(and(eq(chainCursors.mode, s.mode), eq(chainCursors.chainId, s.chainId)));
  const final = cursor?.final ?? -1;
  const linked = await tx.select().from(chainTransfers).where(eq(chainTransfers.settlementId, s.id)).for('update');
  const waiting = new SettlementWaiting('waiting for the watcher to record the swept payments at or below the solidified block');
  if (linked.some((t) => t.blockNumber > final)) throw waiting;
  let sum = linked.reduce((a, t) => a.add(t.amount), new Decimal(0));
  if (sum.gte(s.amount)) {
    if (sum.eq(s.amount)) return;
    throw waiting;
  }
  const free = await tx
    .select()
    .from(chainTransfers)
    .where(
      and(
        eq(chainTransfers.invoiceId, s.invoiceId),
        eq(chainTransfers.chainId, s.chainId),
        isNull(chainTransfers.settlementId),
        sql`${chainTransfers.blockNumber} <= ${final}`,
      ),
    )
    .orderBy(chainTransfers.blockNumber, chainTransfers.logIndex)
    .for('update');
  const adopt: string[] = [];
  for (const t of free) {
    if (sum.gte(s.amount)) break;
    sum = sum.add(t.amount);
    adopt.push(t.id);
  }
  if (!sum.eq(s.amount)) throw waiting;
  for (const id of adopt) await tx.update(chainTransfers).set({ settlementId: s.id }).where(eq(chainTransfers.id, id));
}
