import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { webhookDeliveries, type DeliveryStatus } from '@/db/schema';
import type { SendOutcome } from './send-webhook';
import type { RawRow } from '@/lib/db/raw-row';
import { inQueueOrder } from './claim-deliveries';
import { ACTIVE_SLOT } from './queue';
import { processMetrics } from '@/lib/metrics/registry';

export interface AttemptRecord {
  deliveryId: string;
  /** The claim token: a worker whose claim expired and was taken over records nothing. */
  token: string;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  lastError: string | null;
  /** Null when the delivery was closed without sending (endpoint disabled or deleted). */
  attempt: { number: number; startedAt: Date; url: string; outcome: SendOutcome; error: string | null; apiVersion: string } | null;
}

/**
 * Writes attempts' outcomes and their deliveries' next state, any number in
 * one statement (rows travel as one JSON parameter): the queue row leaves the
 * queue or is released for its retry, the log row and the attempt are
 * written. Only the claim's holder (token) records. Returns the delivery ids
 * recorded; one missing lost its claim to another worker.
 */
export async function recordAttempts(db: Db, records: AttemptRecord[]): Promise<Set<string>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return countOutcomes(records, await recordOnce(db, records));
    } catch (err) {
      // A rotation moved a row between partitions under this statement (40001): the next try finds it where it is now.
      const code = err && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : '';
      if (code !== '40001' || attempt >= 3) throw err;
    }
  }
}

/** The process's gateway_webhook_deliveries_total by outcome, for the attempts this worker recorded. */
function countOutcomes(records: AttemptRecord[], recorded: Set<string>): Set<string> {
  const counter = processMetrics().webhookDeliveries;
  for (const r of records) {
    if (!recorded.has(r.deliveryId)) continue;
    const outcome = r.attempt === null ? 'closed' : r.status === 'SUCCEEDED' ? 'succeeded' : r.status === 'DEAD_LETTER' ? 'dead_letter' : 'retry';
    counter.inc({ outcome });
  }
  return recorded;
}

async function recordOnce(db: Db, records: AttemptRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  // Ordered index probes only: with statistics that call a partition empty (as after its TRUNCATE) the planner
  // probed it by a sequential scan per row, 43 ms each with a 155,000-row backlog.
  const res = await inQueueOrder(db, recordStatement(records));
  return new Set(rowsOf<RawRow<typeof webhookDeliveries, { id: string }>>(res).map((r) => r.id));
}

/** The outcome write of recordAttempts (also explained by the queue tests). */
export function recordStatement(records: AttemptRecord[]) {
  const rows = records.map((r) => ({
    id: r.deliveryId,
    token: r.token,
    status: r.status,
    next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    last_error: r.lastError,
    has_attempt: r.attempt !== null,
    number: r.attempt?.number ?? null,
    started_at: r.attempt?.startedAt.toISOString() ?? null,
    url: r.attempt?.url ?? null,
    response_status: r.attempt?.outcome.status ?? null,
    duration_ms: r.attempt?.outcome.durationMs ?? null,
    error: r.attempt?.error ?? null,
    response_body: r.attempt?.outcome.responseBody ?? null,
    api_version: r.attempt?.apiVersion ?? null,
  }));
  return sql`
    -- Every table is reached by '= any(array(...))' of the batch's ids, served from the index whatever the
    -- statistics say about the queue or the log (a join could become a full scan).
    with r as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        id text, token text, status text, next_attempt_at timestamptz, last_error text, has_attempt boolean, number int,
        started_at timestamptz, url text, response_status int, duration_ms int, error text, response_body text, api_version text)
    ), done as (
      -- Delivered or dead-lettered: out of the hot queue (only by the claim's holder).
      delete from webhook_queue q using r
       where q.delivery_id = r.id and q.claim_token = r.token and r.status in ('SUCCEEDED', 'DEAD_LETTER')
      returning q.delivery_id
    ), retry as (
      -- To be retried: released, due later, and moved to the active partition (so the other one empties).
      update webhook_queue q
         set slot = ${ACTIVE_SLOT}, next_attempt_at = r.next_attempt_at, claimed_until = null, claim_token = null,
             attempt_count = case when r.has_attempt then r.number else q.attempt_count end
        from r
       where q.delivery_id = r.id and q.claim_token = r.token and r.status not in ('SUCCEEDED', 'DEAD_LETTER')
      returning q.delivery_id
    ), ok as (
      select delivery_id as id from done union all select delivery_id from retry
    ), u as (
      update webhook_deliveries d
         set status = r.status, next_attempt_at = r.next_attempt_at, last_error = r.last_error, updated_at = now(),
             attempt_count = case when r.has_attempt then r.number else d.attempt_count end,
             last_attempt_at = case when r.has_attempt then r.started_at else d.last_attempt_at end
        from r join ok on ok.id = r.id
       where d.id = r.id
      returning d.id
    ), i as (
      insert into webhook_attempts (delivery_id, number, attempted_at, url, response_status, duration_ms, error, response_body, api_version)
      select r.id, r.number, r.started_at, r.url, r.response_status, r.duration_ms, r.error, r.response_body, r.api_version
        from r join ok on ok.id = r.id
       where r.has_attempt
      on conflict (delivery_id, number) do nothing
    )
    select id from u`;
}
