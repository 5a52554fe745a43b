import { desc, isNull } from 'drizzle-orm';
import { consoleAlerts, operatorEvents } from '@/db/schema';
import type { Db } from '@/lib/db';

/** The console's open alerts, newest first. */
export async function listOpenAlerts(db: Db) {
  return db.select().from(consoleAlerts).where(isNull(consoleAlerts.resolvedAt)).orderBy(desc(consoleAlerts.openedAt)).limit(50);
}

/** The latest operator events, newest first. */
export async function listOperatorEvents(db: Db, limit = 50) {
  return db.select().from(operatorEvents).orderBy(desc(operatorEvents.createdAt), desc(operatorEvents.id)).limit(limit);
}
