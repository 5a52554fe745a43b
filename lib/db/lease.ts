import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';

/**
 * Takes the named lease when it is free (expired) or already ours. The lease
 * doubles as the schedule: after a run it is held until the next run is due,
 * so several workers share one timetable and never run a job twice at once.
 */
export async function acquireLease(db: Db, name: string, owner: string, holdMs: number): Promise<boolean> {
  const res = await db.execute(sql`
    insert into job_leases (name, owner, expires_at)
    values (${name}, ${owner}, now() + make_interval(secs => ${holdMs / 1000}))
    on conflict (name) do update set owner = excluded.owner, expires_at = excluded.expires_at
      where job_leases.expires_at <= now()
    returning name`);
  return rowsOf(res).length > 0;
}

/** Records the run (its counters too: /metrics reads them) and keeps the lease until `nextInMs` from now. */
export async function completeLease(db: Db, name: string, owner: string, nextInMs: number, error?: string, durationMs = 0): Promise<void> {
  const ms = Math.max(0, Math.round(durationMs));
  await db.execute(sql`
    update job_leases set expires_at = now() + make_interval(secs => ${nextInMs / 1000}),
           last_run_at = now(), last_error = ${error ?? null},
           runs = runs + 1, failures = failures + ${error === undefined ? 0 : 1},
           duration_ms_total = duration_ms_total + ${ms}, last_duration_ms = ${ms}
     where name = ${name} and owner = ${owner}`);
}

/**
 * Counts a run made outside the lease (a Trigger.dev task, whose schedule decides overlap): the same
 * counters as completeLease, without taking or extending the lease.
 */
export async function countJobRun(db: Db, name: string, durationMs: number, error?: string): Promise<void> {
  const ms = Math.max(0, Math.round(durationMs));
  await db.execute(sql`
    insert into job_leases (name, owner, expires_at, last_run_at, last_error, runs, failures, duration_ms_total, last_duration_ms)
    values (${name}, 'trigger.dev', now(), now(), ${error ?? null}, 1, ${error === undefined ? 0 : 1}, ${ms}, ${ms})
    on conflict (name) do update set last_run_at = now(), last_error = excluded.last_error,
       runs = job_leases.runs + 1, failures = job_leases.failures + excluded.failures,
       duration_ms_total = job_leases.duration_ms_total + excluded.duration_ms_total, last_duration_ms = excluded.last_duration_ms`);
}

/** Extends a lease we hold (the heartbeat of a running job); false when another owner has it now. */
export async function renewLease(db: Db, name: string, owner: string, holdMs: number): Promise<boolean> {
  const res = await db.execute(sql`
    update job_leases set expires_at = now() + make_interval(secs => ${holdMs / 1000})
     where name = ${name} and owner = ${owner}
    returning name`);
  return rowsOf(res).length > 0;
}
