import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';

/** Drops rate-limit windows older than two minutes and idempotency records older than 24 hours. */
export async function purgeExpiredRequestState(db: Db): Promise<void> {
  await db.execute(sql`delete from rate_limit_windows where window_start < now() - interval '2 minutes'`);
  await db.execute(sql`delete from idempotency_requests where created_at < now() - interval '24 hours'`);
}
