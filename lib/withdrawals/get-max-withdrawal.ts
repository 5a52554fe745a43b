import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import { getNetworks, railOf, tokensOf, type Network } from '@/lib/chain/network';
import { ASSETS, DEFAULT_RAIL, type Asset, type ChainKey } from '@/lib/config/rails';
import { getBalance } from '@/lib/ledger/get-balance';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { maxWithdrawal } from './amounts';
import { networkTerms } from './network-terms';

/**
 * The networks that pay an asset out in a mode, BSC first: those with an enabled rail of it.
 * BSC USDT is always one (the spec's default rail), whether or not its contract is configured.
 */
export function payoutNetworks(mode: Mode, asset: Asset): Network[] {
  const paying = (n: Network) => tokensOf(n).some((t) => t.asset === asset) || (n.chain === DEFAULT_RAIL.chain && asset === DEFAULT_RAIL.token);
  return getNetworks(mode).flatMap((n) => {
    const rail = paying(n) ? railOf(n, asset) : undefined;
    return rail ? [rail] : [];
  });
}

/**
 * GET /v1/withdrawals/max: the largest amount whose amount + fee fits the balance of one asset
 * (`?currency=`: the API defaults it to USDT, the function never) on one network (`?chain=`, BSC by default, else the first network paying
 * the asset), whose flat network fee is part of the fee (maxWithdrawal). maxAmount already has two decimals
 * (maxWithdrawal rounds it and caps it at the whole cents of what the flat fee leaves), and estimatedFee is
 * balance − maxAmount, the fee the debit charges for exactly that amount: maxAmount + estimatedFee is the
 * balance whatever its decimals (18 on BSC, 6 elsewhere), never more. The spec's fields keep their meaning;
 * `networkFee` and `chain` are added.
 */
export async function getMaxWithdrawal(
  db: Db,
  owner: { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> },
  query: { currency: Asset; chain?: ChainKey },
) {
  const currency = query.currency;
  const nets = payoutNetworks(owner.mode, currency);
  // A Max of an asset no rail pays out would promise a withdrawal that POST /v1/withdrawals refuses.
  if (nets.length === 0) {
    const enabled = ASSETS.filter((a) => payoutNetworks(owner.mode, a).length > 0);
    const message = `${currency} is not enabled on this gateway (enabled: ${enabled.join(', ')})`;
    throw new ApiError('validation_failed', `${message}.`, [{ path: 'currency', message }]);
  }
  const net = query.chain ? nets.find((n) => n.chain === query.chain) : nets[0];
  if (!net) {
    const message = `${currency} is not paid out on ${query.chain} (networks: ${nets.map((n) => n.chain).join(', ')})`;
    throw new ApiError('validation_failed', `${message}.`, [{ path: 'chain', message }]);
  }
  const terms = networkTerms(net);
  const balance = await getBalance(db, { tenantId: owner.tenantId, mode: owner.mode, currency });
  const rate = new Decimal(owner.tenant.withdrawalFeeRate);
  const { maxAmount, estimatedFee } = maxWithdrawal(balance, rate, terms.networkFee);
  return {
    maxAmount: maxAmount.toFixed(2),
    balance: formatAmount(balance),
    feePercent: rate.toFixed(),
    estimatedFee: formatAmount(estimatedFee),
    minWithdrawal: terms.minWithdrawal.toFixed(2),
    networkFee: terms.networkFee.toFixed(2),
    chain: net.chain,
  };
}

/** Per network paying the asset out: its minimum and flat fee (the balance endpoint, the dashboard). */
export function withdrawalCosts(mode: Mode, asset: Asset) {
  return payoutNetworks(mode, asset).map((net) => {
    const t = networkTerms(net);
    return { chain: net.chain, minWithdrawal: t.minWithdrawal.toFixed(2), networkFee: t.networkFee.toFixed(2) };
  });
}
