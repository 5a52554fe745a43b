import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { validate } from '@/lib/api/request';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { UnderpaymentToleranceInput } from './schemas';

/**
 * Sets the percent a payment may fall short of an invoice and still count as
 * paid (the dashboard's settings page), with its audit row in the same
 * transaction: it decides what the tenant accepts as payment. Only invoices
 * created afterwards use it: each invoice keeps the value it was created with.
 * Bad input is a 400 validation_failed.
 */
export async function updateUnderpaymentTolerance(db: Db, owner: { tenantId: string; mode: Mode }, actor: AuditActor, input: unknown) {
  const { underpaymentTolerancePercent } = validate(UnderpaymentToleranceInput, input, 'body');
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ value: tenants.underpaymentTolerancePercent })
      .from(tenants)
      .where(eq(tenants.id, owner.tenantId))
      .for('update');
    const [row] = await tx
      .update(tenants)
      .set({ underpaymentTolerancePercent, updatedAt: new Date() })
      .where(eq(tenants.id, owner.tenantId))
      .returning({ id: tenants.id, underpaymentTolerancePercent: tenants.underpaymentTolerancePercent });
    const pct = (v: string) => new Decimal(v).toFixed();
    await recordAudit(
      tx,
      actor,
      merchantAuditEntry(owner, {
        action: 'tenant.underpayment_tolerance_changed',
        before: pct(before!.value),
        after: pct(row!.underpaymentTolerancePercent),
      }),
    );
    return { id: row!.id, underpaymentTolerancePercent: pct(row!.underpaymentTolerancePercent) };
  });
}
