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

/** Records the run and keeps the lease until `nextInMs` from now. */
export async function completeLease(db: Db, name: string, owner: string, nextInMs: number, error?: string): Promise<void> {
  await db.execute(sql`
    update job_leases set expires_at = now() + make_interval(secs => ${nextInMs / 1000}),
           last_run_at = now(), last_error = ${error ?? null}
     where name = ${name} and owner = ${owner}`);
}

/** Extends a lease we hold (the heartbeat of a running job); false when another owner has it now. */
export async function renewLease(db: Db, name: string, owner: string, holdMs: number): Promise<boolean> {
  const res = await db.execute(sql`
    update job_leases set expires_at = now() + make_interval(secs => ${holdMs / 1000})
     where name = ${name} and owner = ${owner}
    returning name`);
  return rowsOf(res).length > 0;
}
