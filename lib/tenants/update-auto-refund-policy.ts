import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { validate } from '@/lib/api/request';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { AutoRefundPolicyInput } from './schemas';

/**
 * Turns the auto-refund policy on or off (the dashboard's settings page, owner
 * only), with its audit row in the same transaction: it lets payers direct
 * overpayments without the merchant. Applies to undecided proposals too.
 */
export async function updateAutoRefundPolicy(db: Db, owner: { tenantId: string; mode: Mode }, actor: AuditActor, input: unknown) {
  const { autoRefundOverpayments } = validate(AutoRefundPolicyInput, input, 'body');
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ value: tenants.autoRefundOverpayments }).from(tenants).where(eq(tenants.id, owner.tenantId)).for('update');
    await tx.update(tenants).set({ autoRefundOverpayments, updatedAt: new Date() }).where(eq(tenants.id, owner.tenantId));
    await recordAudit(
      tx,
      actor,
      merchantAuditEntry(owner, { action: 'tenant.auto_refund_policy_changed', before: before!.value, after: autoRefundOverpayments }),
    );
    return { autoRefundOverpayments };
  });
}
