import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { webhookDeliveries, type DeliveryStatus } from '@/db/schema';
import type { SendOutcome } from './send-webhook';
import type { RawRow } from '@/lib/db/raw-row';

export interface AttemptRecord {
  deliveryId: string;
  /** The claim token: a worker whose claim expired and was taken over records nothing. */
  token: string;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  lastError: string | null;
  /** Null when the delivery was closed without sending (endpoint disabled or deleted). */
  attempt: { number: number; startedAt: Date; url: string; outcome: SendOutcome; error: string | null } | null;
}

/**
 * Writes attempts' outcomes and their deliveries' next state, any number in
 * one statement (rows travel as one JSON parameter). Returns the delivery ids
 * recorded; one missing lost its claim to another worker.
 */
export async function recordAttempts(db: Db, records: AttemptRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
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
  }));
  const res = await db.execute(sql`
    with r as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        id text, token text, status text, next_attempt_at timestamptz, last_error text, has_attempt boolean, number int,
        started_at timestamptz, url text, response_status int, duration_ms int, error text, response_body text)
    ), u as (
      update webhook_deliveries d
         set status = r.status, next_attempt_at = r.next_attempt_at, claimed_until = null, claim_token = null,
             last_error = r.last_error, updated_at = now(),
             attempt_count = case when r.has_attempt then r.number else d.attempt_count end,
             last_attempt_at = case when r.has_attempt then r.started_at else d.last_attempt_at end
        from r
       where d.id = r.id and d.claim_token = r.token
      returning d.id
    ), i as (
      insert into webhook_attempts (delivery_id, number, attempted_at, url, response_status, duration_ms, error, response_body)
      select r.id, r.number, r.started_at, r.url, r.response_status, r.duration_ms, r.error, r.response_body
        from r join u on u.id = r.id
       where r.has_attempt
      on conflict (delivery_id, number) do nothing
    )
    select id from u`);
  return new Set(rowsOf<RawRow<typeof webhookDeliveries, { id: string }>>(res).map((r) => r.id));
}
