import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { validate } from '@/lib/api/request';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { WrongNetworkPolicyInput } from './schemas';

/**
 * Sets what happens to a payment in the invoice's token on another network
 * (the dashboard's settings page, owner only), with its audit row in the same
 * transaction. Applies to payments the watcher finds from now on; one already
 * held stays held.
 */
export async function updateWrongNetworkPolicy(db: Db, owner: { tenantId: string; mode: Mode }, actor: AuditActor, input: unknown) {
  const { wrongNetworkPolicy } = validate(WrongNetworkPolicyInput, input, 'body');
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ value: tenants.wrongNetworkPolicy }).from(tenants).where(eq(tenants.id, owner.tenantId)).for('update');
    await tx.update(tenants).set({ wrongNetworkPolicy, updatedAt: new Date() }).where(eq(tenants.id, owner.tenantId));
    await recordAudit(
      tx,
      actor,
      merchantAuditEntry(owner, { action: 'tenant.wrong_network_policy_changed', before: before!.value, after: wrongNetworkPolicy }),
    );
    return { wrongNetworkPolicy };
  });
}
