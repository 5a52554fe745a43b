import { sql } from 'drizzle-orm';
import { withdrawalControls } from '@/db/schema';
import type { Db } from '@/lib/db';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { getWithdrawalControls } from './get-withdrawal-controls';
import { ControlsInput } from './schemas';

export interface OwnerSession {
  owner: { tenantId: string; mode: Mode };
  user: { id: string; email: string };
  actor: AuditActor;
}

const plain = (v: string | null) => (v === null ? null : new Decimal(v).toFixed());

/** The owner changes the controls (dashboard session + TOTP step-up); the change and its audit row commit together. */
export async function updateWithdrawalControls(db: Db, s: OwnerSession, input: unknown) {
  const v = ControlsInput.parse(input);
  await requireStepUp(db, s.user.id, v.totpCode);
  const next = {
    allowlistEnabled: v.allowlistEnabled,
    coolingOffHours: v.coolingOffHours,
    dailyLimit: plain(v.dailyLimit),
    approvalThreshold: plain(v.approvalThreshold),
  };
  return db.transaction(async (tx) => {
    const before = await getWithdrawalControls(tx, s.owner);
    const now = new Date();
    const [row] = await tx
      .insert(withdrawalControls)
      .values({ ...s.owner, ...next, updatedAt: now })
      .onConflictDoUpdate({ target: [withdrawalControls.tenantId, withdrawalControls.mode], set: { ...next, updatedAt: sql`excluded.updated_at` } })
      .returning();
    const was = {
      allowlistEnabled: before.allowlistEnabled,
      coolingOffHours: before.coolingOffHours,
      dailyLimit: plain(before.dailyLimit),
      approvalThreshold: plain(before.approvalThreshold),
    };
    await recordAudit(
      tx,
      s.actor,
      { action: 'withdrawal_controls.updated', target: { type: 'tenant', id: s.owner.tenantId }, ...s.owner, before: was, after: next },
      now,
    );
    return row!;
  });
}
