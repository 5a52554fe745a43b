import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { changeTenant } from '@/lib/tenants/change-tenant';
import { FeeRatesBody } from './schemas';

/** Console: changes a tenant's fee rates (applied to settlements and withdrawals created from now on). */
export async function setFeeRates(db: Db, actor: AuditActor, tenantId: string, raw: unknown, now = new Date()) {
  const input = FeeRatesBody.parse(raw);
  return db.transaction(async (tx) => {
    const { before, after } = await changeTenant(tx, tenantId, () => input, now);
    await recordAudit(
      tx,
      actor,
      {
        action: 'tenant.fee_rates_changed',
        target: { type: 'tenant', id: tenantId },
        tenantId,
        before: { invoiceFeeRate: before.invoiceFeeRate, withdrawalFeeRate: before.withdrawalFeeRate },
        after: { invoiceFeeRate: after.invoiceFeeRate, withdrawalFeeRate: after.withdrawalFeeRate },
      },
      now,
    );
    return after;
  });
}
