import type { Db } from '@/lib/db';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { getBalance } from '@/lib/ledger/get-balance';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { maxWithdrawal } from './amounts';
import { MIN_WITHDRAWAL } from './schemas';

/** GET /v1/withdrawals/max: the largest amount whose amount + fee fits the balance. */
export async function getMaxWithdrawal(db: Db, owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> }) {
  const balance = await getBalance(db, owner);
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
