import { and, eq, gt, isNull } from 'drizzle-orm';
import { tenants, userSessions, users } from '@/db/schema';
import type { Db } from '@/lib/db';
import { env } from '@/lib/env';
import { newId } from '@/lib/ids';

export async function createSession(db: Db, userId: string, meta: { ip?: string; userAgent?: string } = {}, now = new Date()) {
  const expiresAt = new Date(now.getTime() + env().SESSION_MAX_AGE_HOURS * 3_600_000);
  const [row] = await db
    .insert(userSessions)
    .values({ id: newId('session'), userId, expiresAt, ip: meta.ip ?? null, userAgent: meta.userAgent?.slice(0, 300) ?? null, createdAt: now })
    .returning();
  await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, userId));
  return row!;
}

export type SessionContext = NonNullable<Awaited<ReturnType<typeof getActiveSession>>>;

/** The live session with its user and tenant, or null when unknown, revoked, expired or the user has no tenant. */
export async function getActiveSession(db: Db, sessionId: string, now = new Date()) {
  const [row] = await db
    .select({
      sessionId: userSessions.id,
      expiresAt: userSessions.expiresAt,
      user: { id: users.id, email: users.email, role: users.role, totpEnabled: users.totpSecret },
      tenant: {
        id: tenants.id,
        name: tenants.name,
        status: tenants.status,
        invoiceFeeRate: tenants.invoiceFeeRate,
        withdrawalFeeRate: tenants.withdrawalFeeRate,
        underpaymentTolerancePercent: tenants.underpaymentTolerancePercent,
        autoRefundOverpayments: tenants.autoRefundOverpayments,
        autoRefundEnabledAt: tenants.autoRefundEnabledAt,
        autoRefundDelaySeconds: tenants.autoRefundDelaySeconds,
        autoRefundMaxMultiple: tenants.autoRefundMaxMultiple,
        autoRefundMaxAmount: tenants.autoRefundMaxAmount,
        refundNetworkFeePayer: tenants.refundNetworkFeePayer,
        wrongNetworkPolicy: tenants.wrongNetworkPolicy,
        rails: tenants.rails,
      },
    })
    .from(userSessions)
    .innerJoin(users, eq(users.id, userSessions.userId))
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt), gt(userSessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  return { ...row, user: { ...row.user, totpEnabled: row.user.totpEnabled !== null } };
}

export async function revokeSession(db: Db, sessionId: string) {
  await db
    .update(userSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt)));
}
