import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { payoutItems, withdrawalAllowlist, withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { AWAITING_APPROVAL } from '@/lib/withdrawals/pending-reasons';
import { withdrawalView } from '@/lib/withdrawals/view';
import { getWithdrawalControls } from './get-withdrawal-controls';

/** Everything the dashboard's Withdrawal controls section shows, for one tenant and mode. */
export async function listWithdrawalControls(db: Db, owner: { tenantId: string; mode: Mode }, now = new Date()) {
  const where = (t: typeof withdrawalAllowlist | typeof withdrawals) => and(eq(t.tenantId, owner.tenantId), eq(t.mode, owner.mode));
  const [controls, addresses, awaiting] = await Promise.all([
    getWithdrawalControls(db, owner),
    db.select().from(withdrawalAllowlist).where(where(withdrawalAllowlist)).orderBy(desc(withdrawalAllowlist.createdAt)).limit(500),
    db
      .select()
      .from(withdrawals)
      .where(
        and(
          where(withdrawals),
          eq(withdrawals.status, 'PENDING'),
          eq(withdrawals.pendingReason, AWAITING_APPROVAL),
          // A payout's items wait as one approval, on the payout's page.
          sql`not exists (select 1 from ${payoutItems} where ${payoutItems.withdrawalId} = ${withdrawals.id})`,
        ),
      )
      .orderBy(asc(withdrawals.createdAt))
      .limit(200),
  ]);
  return {
    controls: {
      allowlistEnabled: controls.allowlistEnabled,
      coolingOffHours: controls.coolingOffHours,
      dailyLimit: controls.dailyLimit,
      approvalThreshold: controls.approvalThreshold,
    },
    addresses: addresses.map((a) => ({
      id: a.id,
      address: a.address,
      label: a.label,
      activeAt: a.activeAt.toISOString(),
      active: a.activeAt <= now,
    })),
    awaitingApproval: awaiting.map(withdrawalView),
  };
}
