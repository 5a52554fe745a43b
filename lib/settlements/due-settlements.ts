import { sql, type SQL } from 'drizzle-orm';
import { settlements } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import type { RawRow } from '@/lib/db/raw-row';
import type { Network } from '@/lib/chain/network';

/**
 * The condition for a settlement that may be claimed now: the network's, not
 * finished, due, and not held by a live claim. One definition for the claim
 * (claimSettlement) and the Trigger.dev fan-out that queues a run per due
 * settlement, so the two never disagree on what is due.
 */
export function settlementDueSql(net: Pick<Network, 'mode' | 'chainId'>): SQL {
  return sql`${settlements.chainId} = ${net.chainId} and ${settlements.mode} = ${net.mode}
    and ${settlements.status} in ('pending', 'processing')
    and ${settlements.nextAttemptAt} <= now() and (${settlements.lockedUntil} is null or ${settlements.lockedUntil} < now())`;
}

/** Due settlements of the network, oldest due first, with their attempt count (the fan-out's idempotency key). */
export async function dueSettlements(db: Db, net: Pick<Network, 'mode' | 'chainId'>, limit = 500) {
  return rowsOf<RawRow<typeof settlements, { id: string; attempts: number }>>(
    await db.execute(sql`
      select ${settlements.id}, ${settlements.attempts} from ${settlements}
       where ${settlementDueSql(net)}
       order by ${settlements.nextAttemptAt} limit ${limit}`),
  );
}
