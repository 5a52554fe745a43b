import { sql } from 'drizzle-orm';
import type { Settlement } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';

/** How the reason of a sweep waiting for the energy wallet's stake begins (settlements.last_error): the queue's mark. */
export const STAKE_WAIT = "waiting for the energy wallet's stake";

/**
 * How many sweeps waiting for the energy wallet's stake go before this one (issue 44: fair across tenants when
 * the stake runs short). A sweep is in the queue once it was told to wait for stake (STAKE_WAIT, put back by
 * runSettlements) and until it is planned; those of tenants holding fewer reservations of the stake go first
 * (a reservation: a delegating plan whose energy is not back yet, open or finished), then the oldest. The planner
 * leaves the stake they need to them, so a tenant with a burst of sweeps cannot take every sweep's worth that
 * comes back, whoever asks first. Read under the energy wallet's lock.
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
         and w.last_error like ${`${STAKE_WAIT}%`}
         and (coalesce((select n from held where held.tenant_id = w.tenant_id), 0), w.created_at, w.id)
           < (coalesce((select n from held where held.tenant_id = ${s.tenantId}), 0), ${s.createdAt.toISOString()}::timestamptz, ${s.id})`),
  );
  return BigInt(row?.ahead ?? '0');
}
