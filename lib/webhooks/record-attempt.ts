import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import type { DeliveryStatus } from '@/db/schema';
import type { SendOutcome } from './send-webhook';

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

const ts = (d: Date | null) => (d ? sql`${d.toISOString()}::timestamptz` : sql`null`);

/** Writes an attempt's outcome and the delivery's next state in one statement; false when the claim was lost. */
export async function recordAttempt(db: Db, r: AttemptRecord): Promise<boolean> {
  const a = r.attempt;
  const res = await db.execute(sql`
    with u as (
      update webhook_deliveries
         set status = ${r.status}, next_attempt_at = ${ts(r.nextAttemptAt)}, claimed_until = null, claim_token = null,
             last_error = ${r.lastError}, updated_at = now()
             ${a ? sql`, attempt_count = ${a.number}, last_attempt_at = ${ts(a.startedAt)}` : sql``}
       where id = ${r.deliveryId} and claim_token = ${r.token}
      returning id
    )${
      a
        ? sql`, i as (
      insert into webhook_attempts (delivery_id, number, attempted_at, url, response_status, duration_ms, error, response_body)
      select id, ${a.number}, ${ts(a.startedAt)}, ${a.url}, ${a.outcome.status}, ${a.outcome.durationMs}, ${a.error}, ${a.outcome.responseBody}
        from u
      on conflict (delivery_id, number) do nothing
    )`
        : sql``
    }
    select count(*)::int as n from u`);
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0) > 0;
}
