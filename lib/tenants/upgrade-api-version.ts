import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { API_VERSION_NAMES, parseApiVersion, type ApiVersion } from '@/lib/api/versions';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';

/**
 * Moves the tenant's API version forward (the dashboard's settings, owner only): requests by keys without a
 * version of their own, and webhook endpoints that follow the tenant, are rendered in it from the next request
 * and the next delivery. Never back: an integration that needs an older version pins its key or endpoint to it
 * (or sends Gateway-Version). Audited in the same transaction.
 */
export async function upgradeApiVersion(db: Db, owner: { tenantId: string; mode: Mode }, actor: AuditActor, input: { apiVersion?: unknown }) {
  const apiVersion = parseApiVersion(input.apiVersion, 'apiVersion');
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ apiVersion: tenants.apiVersion }).from(tenants).where(eq(tenants.id, owner.tenantId)).for('update');
    if (!row) throw notFound('Tenant');
    if (API_VERSION_NAMES.indexOf(apiVersion) <= API_VERSION_NAMES.indexOf(row.apiVersion as ApiVersion)) {
      throw new ApiError('invalid_state', `The account is on ${row.apiVersion}; the API version only moves forward.`);
    }
    await tx.update(tenants).set({ apiVersion, updatedAt: new Date() }).where(eq(tenants.id, owner.tenantId));
    await recordAudit(tx, actor, {
      tenantId: owner.tenantId,
      mode: owner.mode,
      action: 'tenant.api_version_upgraded',
      target: { type: 'tenant', id: owner.tenantId },
      before: { apiVersion: row.apiVersion },
      after: { apiVersion },
    });
    return { apiVersion };
  });
}
