import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import type { AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { tenantView } from './get-tenant-or-throw';
import type { UpdateTenantInput } from './schemas';
import { updateUnderpaymentTolerance } from './update-underpayment-tolerance';
import { updateWrongNetworkPolicy } from './update-wrong-network-policy';

/**
 * PATCH /v1/tenants/me: the underpayment tolerance and the wrong-network policy, through the same
 * functions as the dashboard's settings (an audit row each), in one transaction. The settings are
 * the account's, for live and test alike, so a test key may not change them (as it may not mint
 * live keys). Returns the tenant as GET /v1/tenants/me shows it.
 */
export async function updateTenantSettings(db: Db, owner: { tenantId: string; mode: Mode }, actor: AuditActor, input: UpdateTenantInput) {
  if (owner.mode !== 'live')
    throw new ApiError(
      'mode_mismatch',
      'These settings apply to live payments too: change them with a live key with the admin scope, or in the dashboard.',
    );
  return db.transaction(async (tx) => {
    if (input.underpaymentTolerancePercent !== undefined)
      await updateUnderpaymentTolerance(tx, owner, actor, { underpaymentTolerancePercent: input.underpaymentTolerancePercent });
    if (input.wrongNetworkPolicy !== undefined) await updateWrongNetworkPolicy(tx, owner, actor, { wrongNetworkPolicy: input.wrongNetworkPolicy });
    const [row] = await tx.select().from(tenants).where(eq(tenants.id, owner.tenantId));
    return tenantView(row!, owner.mode);
  });
}
