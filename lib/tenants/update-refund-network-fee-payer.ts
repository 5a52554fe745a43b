import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { validate } from '@/lib/api/request';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { RefundNetworkFeePayerInput } from './schemas';

/**
 * Chooses who pays the network fee when money the merchant never kept is given back (the dashboard's
 * settings page, owner only): the payer (default, taken from what they get back) or the merchant. Audited
 * in the same transaction; applies to refunds made from now on.
 */
export async function updateRefundNetworkFeePayer(db: Db, owner: { tenantId: string; mode: Mode }, actor: AuditActor, input: unknown) {
  const { refundNetworkFeePayer } = validate(RefundNetworkFeePayerInput, input, 'body');
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ value: tenants.refundNetworkFeePayer }).from(tenants).where(eq(tenants.id, owner.tenantId)).for('update');
    await tx.update(tenants).set({ refundNetworkFeePayer, updatedAt: new Date() }).where(eq(tenants.id, owner.tenantId));
    await recordAudit(tx, actor, {
      tenantId: owner.tenantId,
      mode: owner.mode,
      action: 'tenant.refund_network_fee_payer_changed',
      target: { type: 'tenant', id: owner.tenantId },
      before: { refundNetworkFeePayer: before!.value },
      after: { refundNetworkFeePayer },
    });
    return { refundNetworkFeePayer };
  });
}
