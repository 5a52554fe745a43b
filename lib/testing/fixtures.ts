import { eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import { getDb, type Db } from '@/lib/db';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import type { Scope } from '@/lib/api/scopes';
import { createTenant } from '@/lib/tenants/create-tenant';
import type { Mode } from '@/lib/mode';

let counter = 0;

/** A fresh tenant with an admin key per mode; tests isolate themselves by tenant. */
export async function createTestTenant(opts: { invoiceFeeRate?: string; withdrawalFeeRate?: string; name?: string } = {}) {
  const db = await getDb();
  const { tenant, keys } = await createTenant(db, {
    name: opts.name ?? `Test tenant ${process.pid}-${++counter}`,
    invoiceFeeRate: opts.invoiceFeeRate,
    withdrawalFeeRate: opts.withdrawalFeeRate,
  });
  return { tenant, db, live: keys.live.key, test: keys.test.key };
}

export async function createTestKey(
  db: Db,
  opts: { tenantId: string; mode: Mode; scopes: Scope[]; rateLimitRpm?: number; state?: 'revoked' | 'expired' },
) {
  const key = await createApiKey(db, {
    tenantId: opts.tenantId,
    mode: opts.mode,
    name: 'test',
    scopes: opts.scopes,
    rateLimitRpm: opts.rateLimitRpm,
  });
  if (opts.state === 'revoked') await db.update(apiKeys).set({ status: 'REVOKED', revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
  if (opts.state === 'expired')
    await db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, key.id));
  return key;
}
