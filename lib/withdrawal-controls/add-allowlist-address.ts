import { withdrawalAllowlist } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { requireStepUp } from '@/lib/auth/require-step-up';
import { recordAudit } from '@/lib/audit/record-audit';
import { newId } from '@/lib/ids';
import { addressFamilyOf } from '@/lib/chain/address-rules';
import { checkDestinationOnAnyNetwork } from '@/lib/destinations/check-destination';
import { getWithdrawalControls } from './get-withdrawal-controls';
import { AddAddressInput, normalizeAddress } from './schemas';
import type { OwnerSession } from './update-withdrawal-controls';

/**
 * Adds an allow-list address (owner session + step-up). It becomes usable
 * only after the tenant's cooling-off period, so a hijacked session cannot add
 * an address and drain to it at once; the audit row shows when it was added.
 */
export async function addAllowlistAddress(db: Db, s: OwnerSession, input: unknown, now = new Date()) {
  const v = AddAddressInput.parse(input);
  await requireStepUp(db, s.user.id, v.totpCode);
  // An address of one of our families is checked like any destination (format, ours, deposit addresses, the SDN
  // snapshot) on every network of that family (a listed address serves any of its rails); another coin's payout
  // address (exchange withdrawals) is listed as given.
  if (addressFamilyOf(v.address)) await checkDestinationOnAnyNetwork(db, s.owner.mode, v.address, 'address');
  return db.transaction(async (tx) => {
    const { coolingOffHours } = await getWithdrawalControls(tx, s.owner);
    const activeAt = new Date(now.getTime() + coolingOffHours * 3600_000);
    const [row] = await tx
      .insert(withdrawalAllowlist)
      .values({ id: newId('allowlistEntry'), ...s.owner, address: normalizeAddress(v.address), label: v.label || null, activeAt, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new ApiError('conflict', 'That address is already on the allow-list.', [{ path: 'address', message: 'already listed' }]);
    await recordAudit(
      tx,
      s.actor,
      {
        action: 'withdrawal_allowlist.added',
        target: { type: 'allowlist_entry', id: row.id },
        ...s.owner,
        after: { address: row.address, label: row.label, activeAt: activeAt.toISOString() },
      },
      now,
    );
    return row;
  });
}
