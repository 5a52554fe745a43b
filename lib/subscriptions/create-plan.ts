import { plans } from '@/db/schema';
import { requireRail } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { assertTenantRail } from '@/lib/tenants/tenant-rails';
import type { CreatePlanInput } from './schemas';
import { planView } from './view';

/** A plan on one of the rails the gateway enables and the tenant accepts (400 otherwise), as an invoice would be. */
export async function createPlan(db: Db, owner: { tenantId: string; mode: Mode; tenant: { rails: string[] | null } }, input: CreatePlanInput) {
  requireRail(owner.mode, input, []);
  assertTenantRail(owner.tenant, owner.mode, input);
  const [row] = await db
    .insert(plans)
    .values({ id: newId('plan'), tenantId: owner.tenantId, mode: owner.mode, ...input })
    .returning();
  return planView(row!);
}
