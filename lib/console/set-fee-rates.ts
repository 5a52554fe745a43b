import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { FeeRatesBody } from './schemas';

/** Console: changes a tenant's fee rates (applied to settlements and withdrawals created from now on). */
export async function setFeeRates(db: Db, actor: AuditActor, tenantId: string, raw: unknown, now = new Date()) {
  const input = FeeRatesBody.parse(raw);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
    if (!before) throw notFound('Tenant');
    const [after] = await tx.update(tenants).set({ ...input, updatedAt: now }).where(eq(tenants.id, tenantId)).returning();
    await recordAudit(
      tx,
      actor,
      {
        action: 'tenant.fee_rates_changed',
        target: { type: 'tenant', id: tenantId },
        tenantId,
        before: { invoiceFeeRate: before.invoiceFeeRate, withdrawalFeeRate: before.withdrawalFeeRate },
        after: { invoiceFeeRate: after!.invoiceFeeRate, withdrawalFeeRate: after!.withdrawalFeeRate },
      },
      now,
    );
    return after!;
  });
}
