import { and, eq } from 'drizzle-orm';
import { collectionSetups, subscriptions } from '@/db/schema';
import { publicClient } from '@/lib/chain/clients';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { collectorRail, type RailLookup } from './collector-network';
import { setUpCollection } from './set-up-collection';
import { sendSetUp } from './permit-tx';

/**
 * Set-ups by signature recorded but not seen through (the process stopped between the record and the receipt, or the
 * node was down): each holds a gas wallet nonce, so the collection job sends the same bytes again, waits for them and
 * turns collection on as the payer's submission would have. A failure leaves the row for the next run.
 */
export async function resumeSetUps(db: Db, opts: { railLookup?: RailLookup; tenantId?: string; limit?: number } = {}) {
  const rows = await db
    .select({ row: collectionSetups, mode: subscriptions.mode, chain: subscriptions.chain, token: subscriptions.token })
    .from(collectionSetups)
    .innerJoin(subscriptions, eq(subscriptions.id, collectionSetups.subscriptionId))
    .where(and(eq(collectionSetups.status, 'signed'), opts.tenantId ? eq(subscriptions.tenantId, opts.tenantId) : undefined))
    .limit(opts.limit ?? 100);
  let resumed = 0;
  for (const r of rows) {
    const net = collectorRail(opts.railLookup)(r.mode, r.chain, r.token);
    if (!net) continue;
    try {
      const done = await sendSetUp(db, publicClient(net.rpcUrl), net, r.row);
      if (done.status === 'confirmed') await setUpCollection(db, done.subscriptionId, { payer: done.payer }, { railLookup: opts.railLookup });
      resumed++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db
        .update(collectionSetups)
        .set({ lastError: message.slice(0, 500) })
        .where(eq(collectionSetups.id, r.row.id));
      log.error('collection set-up resume failed', { setUpId: r.row.id, error: message });
    }
  }
  return resumed;
}
