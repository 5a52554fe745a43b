import { eq, sql } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { validate } from '@/lib/api/request';
import { merchantAuditEntry, type AutoRefundSettings } from '@/lib/audit/audit-merchant-action';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { AutoRefundPolicyInput } from '@/lib/tenants/schemas';

const settingsOf = (t: {
  autoRefundOverpayments: boolean;
  autoRefundDelaySeconds: number;
  autoRefundMaxMultiple: string;
  autoRefundMaxAmount: string;
}): AutoRefundSettings => ({
  autoRefundOverpayments: t.autoRefundOverpayments,
  autoRefundDelaySeconds: t.autoRefundDelaySeconds,
  autoRefundMaxMultiple: new Decimal(t.autoRefundMaxMultiple).toFixed(),
  autoRefundMaxAmount: new Decimal(t.autoRefundMaxAmount).toFixed(),
});

/** Whether `next` lets the policy send more money sooner than `was`: a weakening of withdrawal controls. */
const weakens = (was: AutoRefundSettings, next: AutoRefundSettings) =>
  (next.autoRefundOverpayments && !was.autoRefundOverpayments) ||
  next.autoRefundDelaySeconds < was.autoRefundDelaySeconds ||
  new Decimal(next.autoRefundMaxMultiple).gt(was.autoRefundMaxMultiple) ||
  new Decimal(next.autoRefundMaxAmount).gt(was.autoRefundMaxAmount);

/**
 * The auto-refund policy (the dashboard's settings page, owner only; never an API key): on/off, the delay and
 * the bound, with its audit row (every setting before and after) in the same transaction. It lets payers direct
 * overpayments without the merchant, so a change that weakens it (switching on, a shorter delay, a higher bound)
 * needs step-up (a TOTP code when 2FA is on), like the withdrawal controls; making it stricter or switching it
 * off does not. Switching on (off → on) sets autoRefundEnabledAt to now: payments seen before are never
 * automatic; off clears it. Applies to undecided proposals too (the job checks every rule again), the delay included:
 * a changed delay moves every waiting proposal's `autoRefundAfter` to its creation + the new delay, in this
 * transaction (issue 42 §2: a lengthened delay used to leave proposals due at the old time).
 */
export async function updateAutoRefundPolicy(db: Db, owner: { tenantId: string; mode: Mode }, actor: AuditActor, input: unknown) {
  const v = validate(AutoRefundPolicyInput, input, 'body');
  if (actor.kind !== 'user') throw new ApiError('forbidden', 'The auto-refund policy is changed in the dashboard only.');
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(tenants).where(eq(tenants.id, owner.tenantId)).for('update');
    const was = settingsOf(row!);
    const next = settingsOf({
      autoRefundOverpayments: v.autoRefundOverpayments,
      autoRefundDelaySeconds: v.autoRefundDelaySeconds ?? row!.autoRefundDelaySeconds,
      autoRefundMaxMultiple: v.autoRefundMaxMultiple ?? row!.autoRefundMaxMultiple,
      autoRefundMaxAmount: v.autoRefundMaxAmount ?? row!.autoRefundMaxAmount,
    });
    if (weakens(was, next)) await requireStepUp(tx, actor.id, v.totpCode);
    const now = new Date();
    const enabledAt = !next.autoRefundOverpayments ? null : was.autoRefundOverpayments ? row!.autoRefundEnabledAt : now;
    await tx
      .update(tenants)
      .set({ ...next, autoRefundEnabledAt: enabledAt, updatedAt: now })
      .where(eq(tenants.id, owner.tenantId));
    if (next.autoRefundDelaySeconds !== was.autoRefundDelaySeconds) {
      // Rows an auto-refund pass holds right now are skipped, not waited for (that pass locks the request, then the
      // tenant: waiting here would deadlock); the pass re-reads the delay under the tenant lock (auto-refund.ts).
      await tx.execute(sql`
        update refund_requests set auto_refund_after = created_at + ${next.autoRefundDelaySeconds} * interval '1 second'
         where id in (select id from refund_requests
                       where tenant_id = ${owner.tenantId} and status = 'PENDING' and auto_refund_after is not null
                         for update skip locked)`);
    }
    await recordAudit(tx, actor, merchantAuditEntry(owner, { action: 'tenant.auto_refund_policy_changed', before: was, after: next }));
    return { ...next, autoRefundEnabledAt: enabledAt?.toISOString() ?? null };
  });
}
