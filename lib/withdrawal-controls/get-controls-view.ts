import type { Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { dailyLimitUsed } from './enforce-withdrawal-controls';
import { listWithdrawalControls } from './list-withdrawal-controls';

/** GET /v1/withdrawals/controls: the controls, the limit's remaining allowance and the allow-list (no pending approvals). */
export async function getControlsView(db: Db, owner: { tenantId: string; mode: Mode }, now = new Date()) {
  const { controls: c, addresses } = await listWithdrawalControls(db, owner, now);
  // The same sum as the limit itself (every counted asset, 1:1 in USD).
  const dailyRemaining =
    c.dailyLimit === null ? null : formatAmount(Decimal.max(0, new Decimal(c.dailyLimit).minus(await dailyLimitUsed(db, owner, now))));
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
