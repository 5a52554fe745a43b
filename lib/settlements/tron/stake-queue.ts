import { sql } from 'drizzle-orm';
import type { Settlement } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';

/** How the reason of a sweep waiting for stake begins (settlements.last_error): for people; never read back. */
export const STAKE_WAIT = "waiting for the energy wallet's stake";

/**
 * How many sweeps waiting for the energy wallet's stake go before this one (issue 44: fair across tenants when
 * the stake runs short). A sweep is in the queue from the first time it was told to wait for stake until it is
 * planned: its own column, settlements.stake_wait_since (set by runSettlements when it puts the sweep back,
 * cleared by the planner with the plan it stores), so a later failed attempt's error does not take it out and no
 * error text puts one in. Those of tenants holding fewer reservations of the stake go first (a reservation: a
 * delegating plan whose energy is not back yet, open or finished), then the oldest. The planner leaves the stake
 * they need to them, so a tenant with a burst of sweeps cannot take every sweep's worth that comes back, whoever
 * asks first. Read under the energy wallet's lock.
 */
export async function sweepsAhead(db: Db, s: Pick<Settlement, 'id' | 'tenantId' | 'chainId' | 'mode' | 'createdAt'>): Promise<bigint> {
  const [row] = rowsOf<{ ahead: string }>(
    await db.execute(sql`
      with held as (
        select h.tenant_id, count(*) as n from settlements h
         where h.chain_id = ${s.chainId} and h.mode = ${s.mode}
           and h.gas_plan->>'kind' = 'tron' and h.gas_plan->>'feeMode' = 'delegate'
           and (h.status in ('pending', 'processing')
                or exists (select 1 from settlement_txs t where t.settlement_id = h.id and t.step = 'delegate'))
           and not exists (select 1 from settlement_txs t where t.settlement_id = h.id and t.step = 'undelegate' and t.status in ('confirmed', 'skipped'))
         group by 1)
      select count(*)::text as ahead from settlements w
       where w.chain_id = ${s.chainId} and w.mode = ${s.mode} and w.id <> ${s.id}
         and w.status in ('pending', 'processing') and w.gas_plan is null
         and w.stake_wait_since is not null
         and (coalesce((select n from held where held.tenant_id = w.tenant_id), 0), w.created_at, w.id)
           < (coalesce((select n from held where held.tenant_id = ${s.tenantId}), 0), ${s.createdAt.toISOString()}::timestamptz, ${s.id})`),
  );
  return BigInt(row?.ahead ?? '0');
}
