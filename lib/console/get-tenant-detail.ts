import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, tenants, users, webhookEndpoints } from '@/db/schema';
import { notFound } from '@/lib/api/errors';
import type { Db } from '@/lib/db';
import { MODES } from '@/lib/mode';
import { getBalanceSummary } from '@/lib/withdrawals/get-balance-summary';
import { ASSETS } from '@/lib/config/rails';

/** A tenant for support: keys (never their secrets), balances per mode, fee rates, team, endpoints. */
export async function getTenantDetail(db: Db, tenantId: string) {
  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, tenantId));
  if (!tenant) throw notFound('Tenant');
  const [keys, balances, team, endpoints] = await Promise.all([
    db
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        mode: apiKeys.mode,
        keyPrefix: apiKeys.keyPrefix,
        lastFour: apiKeys.lastFour,
        scopes: apiKeys.scopes,
        status: apiKeys.status,
        rateLimitRpm: apiKeys.rateLimitRpm,
        lastUsedAt: apiKeys.lastUsedAt,
        createdAt: apiKeys.createdAt,
      })
      .from(apiKeys)
      .where(eq(apiKeys.tenantId, tenantId))
      .orderBy(desc(apiKeys.createdAt)),
    // Every asset of each mode: support sees USDC balances too, each in its own unit.
    Promise.all(
      MODES.flatMap((mode) =>
        ASSETS.map(async (currency) => ({ mode, ...(await getBalanceSummary(db, { tenantId, mode }, { currency })), currency })),
      ),
    ),
    db.select({ id: users.id, email: users.email, role: users.role, lastLoginAt: users.lastLoginAt }).from(users).where(eq(users.tenantId, tenantId)),
    db
      .select({
        id: webhookEndpoints.id,
        mode: webhookEndpoints.mode,
        url: webhookEndpoints.url,
        enabled: webhookEndpoints.enabled,
        disabledReason: webhookEndpoints.disabledReason,
      })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.tenantId, tenantId), isNull(webhookEndpoints.deletedAt)))
      .orderBy(sql`${webhookEndpoints.mode}`, desc(webhookEndpoints.createdAt)),
  ]);
  return { tenant, keys, balances, team, endpoints };
}
