import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { listWithdrawalControls } from './list-withdrawal-controls';

/** GET /v1/withdrawals/controls: the controls, the limit's remaining allowance and the allow-list (no pending approvals). */
export async function getControlsView(db: Db, owner: { tenantId: string; mode: Mode }, now = new Date()) {
  const { controls: c, addresses } = await listWithdrawalControls(db, owner, now);
  let dailyRemaining: string | null = null;
  if (c.dailyLimit !== null) {
    const [row] = rowsOf<{ used: string }>(
      await db.execute(sql`select coalesce(sum(amount), 0)::text as used from withdrawals
                            where tenant_id = ${owner.tenantId} and mode = ${owner.mode} and status <> 'FAILED'
                              and created_at > ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`),
    );
    dailyRemaining = formatAmount(Decimal.max(0, new Decimal(c.dailyLimit).minus(row?.used ?? '0')));
  }
  const amount = (v: string | null) => (v === null ? null : formatAmount(v));
  return {
    allowlistEnabled: c.allowlistEnabled,
    coolingOffHours: c.coolingOffHours,
    dailyLimit: amount(c.dailyLimit),
    dailyRemaining,
    approvalThreshold: amount(c.approvalThreshold),
    allowedAddresses: addresses.map(({ address, label, activeAt, active }) => ({ address, label, activeAt, active })),
  };
}
