import { and, eq, gt, isNull } from 'drizzle-orm';
import { userSessions, users } from '@/db/schema';
import type { Db } from '@/lib/db';

/**
 * The live session and its user whatever the role, tenant or not (the
 * dashboard's getActiveSession requires a tenant; support staff have none).
 */
export async function getStaffSession(db: Db, sessionId: string, now = new Date()) {
  const [row] = await db
    .select({ sessionId: userSessions.id, user: { id: users.id, email: users.email, role: users.role, tenantId: users.tenantId } })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt), gt(userSessions.expiresAt, now)))
    .limit(1);
  return row ?? null;
}
