import { and, eq } from 'drizzle-orm';
import { withdrawalAllowlist } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { recordAudit } from '@/lib/audit/record-audit';
import { StepUpInput } from './schemas';
import type { OwnerSession } from './update-withdrawal-controls';

/** Removal takes effect at once (it only ever narrows where money can go); audited in the same transaction. */
export async function removeAllowlistAddress(db: Db, s: OwnerSession, id: string, input: unknown) {
  const v = StepUpInput.parse(input ?? {});
  await requireStepUp(db, s.user.id, v.totpCode);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(withdrawalAllowlist)
      .where(
        and(eq(withdrawalAllowlist.id, String(id)), eq(withdrawalAllowlist.tenantId, s.owner.tenantId), eq(withdrawalAllowlist.mode, s.owner.mode)),
      )
      .returning();
    if (!row) throw new ApiError('not_found', 'No such allow-list address.');
    await recordAudit(tx, s.actor, {
      action: 'withdrawal_allowlist.removed',
      target: { type: 'allowlist_entry', id: row.id },
      ...s.owner,
      before: { address: row.address, label: row.label },
    });
    return { id: row.id, removed: true as const };
  });
}
