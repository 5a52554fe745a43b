import { eq, sql } from 'drizzle-orm';
import { sleep } from '@/lib/async/sleep';
import { rowsOf, type Db } from '@/lib/db';
import { tokensOf, type Network } from '@/lib/chain/network';
import { checkedNetwork } from '@/lib/chain/rail-gate';
import { textArray } from '@/lib/db/text-array';
import { recordSettlementFailure, type RetryPolicy } from './record-settlement-failure';
import { settlementDueSql } from './due-settlements';
import { settleInvoice, type SettleHooks, type SettleNetwork } from './settle-invoice';
import type { RawRow } from '@/lib/db/raw-row';
import { settlements } from '@/db/schema';
import { SettlementWaiting } from './tron/settlement-waiting';
import { SettlementAbandoned } from './tron/settlement-abandoned';
import { abandonSettlement } from './early-sweep';

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, backoffMs: 10_000 };
const LEASE = '5 minutes';
/** A waiting settlement (SettlementWaiting) is claimed again after this. */
const WAIT_MS = 2_000;
const POLL_MS = 500;

/**
 * Claims a due settlement of the network (or the given one): one worker at a
 * time, FOR UPDATE SKIP LOCKED, held by lockedUntil so a crashed worker's claim
 * lapses and another resumes it.
 */
export async function claimSettlement(db: Db, net: Network, id?: string): Promise<string | null> {
  // Only the network's enabled (and not stopped) tokens: another token's settlement waits rather than fail its attempts.
  const tokens = tokensOf(net).map((t) => t.asset);
  const [row] = rowsOf<RawRow<typeof settlements, { id: string }>>(
    await db.execute(sql`
      update settlements set status = 'processing', attempts = attempts + 1, locked_until = now() + ${LEASE}::interval
       where id = (
         select id from settlements
          where ${settlementDueSql(net)}
            and ${settlements.token} = any(${textArray(tokens)})
            ${id ? sql`and id = ${id}` : sql``}
          -- Fair across tenants: the tenant with the fewest sweeps running goes first, then the longest waiting.
          order by (select count(*) from settlements o where o.tenant_id = settlements.tenant_id and o.status = 'processing'
                     and o.locked_until > now()), next_attempt_at
          limit 1 for update skip locked)
      returning id`),
  );
  return row?.id ?? null;
}

/**
 * Settles due settlements until none is left or `max` ran, `concurrency` at a time (a family whose sweeps wait on
 * the chain between steps runs several side by side: settleConcurrency). Each claim is its own row lock and lease.
 */
export async function runSettlements(
  db: Db,
  net: SettleNetwork,
  opts: { max?: number; retry?: RetryPolicy; hooks?: SettleHooks; signal?: AbortSignal; only?: string; concurrency?: number } = {},
) {
  const result = { completed: 0, failed: 0 };
  // Nothing is swept before the rail check has read this network's chain id and tokens (once per process).
  const checked = await checkedNetwork(net);
  if (!checked) return result;
  net = checked;
  const max = opts.only ? 1 : (opts.max ?? 20);
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  const settleOne = async (id: string) => {
    try {
      await settleInvoice(db, net, id, opts.hooks);
      result.completed++;
    } catch (err) {
      if (err instanceof SettlementWaiting) await putBack(db, id, err);
      else if (err instanceof SettlementAbandoned) await abandonSettlement(db, id, err.message);
      else {
        result.failed++;
        await recordFailureRetrying(db, id, err, opts.retry ?? DEFAULT_RETRY);
      }
    }
  };
  const running = new Set<Promise<void>>();
  let started = 0;
  while (started < max && !opts.signal?.aborted) {
    if (running.size >= concurrency) {
      await Promise.race(running);
      continue;
    }
    const id = await claimSettlement(db, net, opts.only);
    if (!id) {
      // Nothing due now: while sweeps run, look again soon (one falling due starts without waiting for the
      // slowest sweep in flight); with none running, the pass is over.
      if (running.size === 0 || opts.only) break;
      await Promise.race([...running, sleep(POLL_MS)]);
      continue;
    }
    started++;
    const run: Promise<void> = settleOne(id).finally(() => running.delete(run));
    running.add(run);
  }
  await Promise.all(running);
  return result;
}

/**
 * Back in the queue in a few seconds, the attempt not counted: nothing failed (SettlementWaiting). A sweep waiting
 * for stake is marked in the stake queue from its first wait on (stake_wait_since; the planner clears it).
 */
async function putBack(db: Db, id: string, wait: SettlementWaiting) {
  await db
    .update(settlements)
    .set({
      attempts: sql`greatest(${settlements.attempts} - 1, 0)`,
      lockedUntil: null,
      lastError: wait.message,
      nextAttemptAt: new Date(Date.now() + WAIT_MS),
      ...(wait.forStake ? { stakeWaitSince: sql`coalesce(${settlements.stakeWaitSince}, now())` } : {}),
    })
    .where(eq(settlements.id, id));
}

/**
 * Records the failure, retrying for about 15 s: when the database itself went
 * away mid-settlement (a restart or failover), giving up at once would leave the
 * settlement claimed for the whole 5-minute LEASE.
 */
async function recordFailureRetrying(db: Db, id: string, err: unknown, retry: RetryPolicy) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await recordSettlementFailure(db, id, err, retry);
    } catch (recordErr) {
      if (attempt >= 8) throw recordErr;
      await new Promise((r) => setTimeout(r, 2_000));
    }
  }
}
