import { ApiError } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { changeTenant } from '@/lib/tenants/change-tenant';
import { TenantStatusBody } from './schemas';

/**
 * Console: suspends or reactivates a tenant. Suspended tenants' API keys and
 * dashboard actions are refused at once (authentication reads the status on
 * every request); money already in flight finishes normally.
 */
export async function setTenantStatus(db: Db, actor: AuditActor, tenantId: string, raw: unknown, now = new Date()) {
  const input = TenantStatusBody.parse(raw);
  return db.transaction(async (tx) => {
    const { before, after } = await changeTenant(
      tx,
      tenantId,
      (t) => {
        if (t.status === input.status) throw new ApiError('invalid_state', `The tenant is already ${input.status}.`);
        return { status: input.status };
      },
      now,
    );
    await recordAudit(
      tx,
      actor,
      {
        action: input.status === 'suspended' ? 'tenant.suspended' : 'tenant.reactivated',
        target: { type: 'tenant', id: tenantId },
        tenantId,
        before: { status: before.status },
        after: { status: after.status, reason: input.reason },
      },
      now,
    );
    return after;
  });
}
