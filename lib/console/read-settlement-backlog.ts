import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { getNetworks } from '@/lib/chain/network';
import { ModeSchema, type Mode } from '@/lib/mode';

export interface SettlementBacklogRow {
  mode: Mode;
  /** The network's wire name (TRON, BSC…), or its chain id when the network is no longer configured. */
  chain: string;
  chainId: number;
  /** Open settlements: pending or processing (the figure of `gateway_settlement_backlog`). */
  open: number;
  /** Of those, held by a worker now (a sweep in flight). */
  running: number;
  /** Of those, backing off: waiting for stake other sweeps hold, or retrying after a failure. */
  waiting: number;
  /** Of those, TRON sweeps in the fair stake queue (settlements.stake_wait_since, not yet planned; `gateway_settlement_stake_queue`). */
  stakeQueue: number;
  /** Tenants with open settlements: a backlog of one tenant's sweeps queues fairly behind the others (claimSettlement). */
  tenants: number;
  /** Seconds since the oldest open settlement was made (`gateway_settlement_oldest_age_seconds`). */
  oldestAgeSeconds: number;
  oldestId: string;
}

/**
 * The settlement backlog per network for the console (issue 44): the same figures as /metrics
 * (lib/monitoring/queue-figures.ts: open settlements and the oldest one's age), with how many run now and how many
 * wait, so support sees whether sweeps keep up with payments. Networks without open settlements are left out.
 */
export async function readSettlementBacklog(db: Db): Promise<SettlementBacklogRow[]> {
  const rows = rowsOf<{
    mode: string;
    chain_id: string;
    open: string;
    running: string;
    waiting: string;
    stake_queue: string;
    tenants: string;
    oldest: number;
    oldest_id: string;
  }>(
    await db.execute(sql`
      select mode, chain_id, count(*) as open,
             count(*) filter (where status = 'processing' and locked_until > now()) as running,
             count(*) filter (where next_attempt_at > now()) as waiting,
             count(*) filter (where stake_wait_since is not null and gas_plan is null) as stake_queue,
             count(distinct tenant_id) as tenants,
             extract(epoch from now() - min(created_at))::float8 as oldest,
             (array_agg(id order by created_at))[1] as oldest_id
        from settlements where status in ('pending', 'processing')
       group by 1, 2 order by oldest desc`),
  );
  return rows.flatMap((r) => {
    const mode = ModeSchema.safeParse(r.mode);
    if (!mode.success) return [];
    const chainId = Number(r.chain_id);
    const net = getNetworks(mode.data).find((n) => n.chainId === chainId);
    return [
      {
        mode: mode.data,
        chain: net?.chain ?? `chain ${chainId}`,
        chainId,
        open: Number(r.open),
        running: Number(r.running),
        waiting: Number(r.waiting),
        stakeQueue: Number(r.stake_queue),
        tenants: Number(r.tenants),
        oldestAgeSeconds: Math.max(0, Math.round(r.oldest)),
        oldestId: r.oldest_id,
      },
    ];
  });
}
