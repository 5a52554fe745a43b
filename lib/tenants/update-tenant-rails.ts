import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { validate } from '@/lib/api/request';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { TenantRailsInput } from './schemas';
import { gatewayRails } from './tenant-rails';

/**
 * The rails a tenant accepts invoices on besides BSC:USDT (the dashboard's
 * settings page, owner only), with its audit row in the same transaction. Only
 * rails the gateway enables may be chosen; open invoices keep their rail.
 */
export async function updateTenantRails(db: Db, owner: { tenantId: string; mode: Mode }, actor: AuditActor, input: unknown) {
  const { rails } = validate(TenantRailsInput, input, 'body');
  const offered = gatewayRails(owner.mode);
  const unknown = rails.filter((r) => !offered.some((o) => o === r));
  if (unknown.length > 0) {
    throw new ApiError('validation_failed', `Not rails of this gateway: ${unknown.join(', ')} (offered: ${offered.join(', ')}).`, [
      { path: 'rails', message: "only the gateway's enabled rails" },
    ]);
  }
  const chosen = [...new Set(rails.filter((r) => r !== 'BSC:USDT'))].sort();
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ value: tenants.rails }).from(tenants).where(eq(tenants.id, owner.tenantId)).for('update');
    await tx.update(tenants).set({ rails: chosen, updatedAt: new Date() }).where(eq(tenants.id, owner.tenantId));
    await recordAudit(tx, actor, {
      tenantId: owner.tenantId,
      mode: owner.mode,
      action: 'tenant.rails_changed',
      target: { type: 'tenant', id: owner.tenantId },
      before: { rails: before!.value },
      after: { rails: chosen },
    });
    return { rails: ['BSC:USDT', ...chosen] };
  });
}
