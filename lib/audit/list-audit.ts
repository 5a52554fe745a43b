import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import { auditLog } from '@/db/schema';
import type { Db } from '@/lib/db';

export interface AuditFilter {
  /** A tenant's own log (Settings) or the console's tenant filter; omitted: every row (console only). */
  tenantId?: string;
  action?: string;
  targetId?: string;
  /** Keyset paging: rows older than this id. */
  before?: string;
  limit?: number;
}

/** Audit rows newest first; ids sort by time, so the last id of a page is the cursor of the next. */
export async function listAudit(db: Db, f: AuditFilter = {}) {
  const where: SQL[] = [];
  if (f.tenantId) where.push(eq(auditLog.tenantId, f.tenantId));
  if (f.action) where.push(eq(auditLog.action, f.action));
  if (f.targetId) where.push(eq(auditLog.targetId, f.targetId));
  if (f.before) where.push(lt(auditLog.id, f.before));
  const limit = Math.min(Math.max(f.limit ?? 50, 1), 200);
  const rows = await db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit + 1);
  return { rows: rows.slice(0, limit), nextBefore: rows.length > limit ? rows[limit - 1]!.id : null };
}
