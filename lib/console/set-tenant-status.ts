import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { TenantStatusBody } from './schemas';

/**
 * Console: suspends or reactivates a tenant. Suspended tenants' API keys and
 * dashboard actions are refused at once (authentication reads the status on
 * every request); money already in flight finishes normally.
 */
export async function setTenantStatus(db: Db, actor: AuditActor, tenantId: string, raw: unknown, now = new Date()) {
  const input = TenantStatusBody.parse(raw);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
    if (!before) throw notFound('Tenant');
    if (before.status === input.status) throw new ApiError('invalid_state', `The tenant is already ${input.status}.`);
    const [after] = await tx.update(tenants).set({ status: input.status, updatedAt: now }).where(eq(tenants.id, tenantId)).returning();
    await recordAudit(
      tx,
      actor,
      {
        action: input.status === 'suspended' ? 'tenant.suspended' : 'tenant.reactivated',
        target: { type: 'tenant', id: tenantId },
        tenantId,
        before: { status: before.status },
        after: { status: after!.status, reason: input.reason },
      },
      now,
    );
    return after!;
  });
}
