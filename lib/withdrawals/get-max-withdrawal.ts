import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { getNetworks, tokensOf } from '@/lib/chain/network';
import type { Asset } from '@/lib/config/rails';
import { getBalance } from '@/lib/ledger/get-balance';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { maxWithdrawal } from './amounts';
import { MIN_WITHDRAWAL } from './schemas';

/**
 * The assets a withdrawal can be paid in for a mode: those with an enabled rail on some network.
 * BSC USDT is always one (the spec's default rail), whether or not its contract is configured.
 */
function withdrawableAssets(mode: Mode): Asset[] {
  const enabled = new Set<Asset>(['USDT']);
  for (const net of getNetworks(mode)) for (const t of tokensOf(net)) enabled.add(t.asset);
  return [...enabled];
}

/**
 * GET /v1/withdrawals/max: the largest amount whose amount + fee fits the balance of one asset
 * (`?currency=`, USDT by default; the spec's fields unchanged). maxAmount already has two decimals
 * (maxWithdrawal rounds it and caps it at the balance's whole cents), and estimatedFee is
 * balance − maxAmount, the fee the debit charges for exactly that amount: maxAmount + estimatedFee
 * is the balance whatever its decimals (18 on BSC, 6 elsewhere), never more.
 */
export async function getMaxWithdrawal(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  query: { currency?: Asset } = {},
) {
  const currency = query.currency ?? 'USDT';
  const enabled = withdrawableAssets(owner.mode);
  // A Max of an asset no rail pays out would promise a withdrawal that POST /v1/withdrawals refuses.
  if (!enabled.includes(currency)) {
    const message = `${currency} is not enabled on this gateway (enabled: ${enabled.join(', ')})`;
    throw new ApiError('validation_failed', `${message}.`, [{ path: 'currency', message }]);
  }
  const balance = await getBalance(db, { tenantId: owner.tenantId, mode: owner.mode, currency });
  const rate = new Decimal(owner.tenant.withdrawalFeeRate);
  const { maxAmount, estimatedFee } = maxWithdrawal(balance, rate);
  return {
    maxAmount: maxAmount.toFixed(2),
    balance: formatAmount(balance),
    feePercent: rate.toFixed(),
    estimatedFee: formatAmount(estimatedFee),
    minWithdrawal: MIN_WITHDRAWAL,
  };
}
