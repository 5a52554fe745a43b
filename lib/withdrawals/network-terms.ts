import { ApiError } from '@/lib/api/errors';
import type { Network } from '@/lib/chain/network';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { Decimal } from '@/lib/money';
import { MIN_WITHDRAWAL } from './schemas';

/**
 * What a withdrawal on one rail costs beside the tenant's percentage: the network's minimum and flat
 * fee (lib/config/network-costs.ts; a network without them, as tests build, has the spec's 0.01 and none).
 */
export function networkTerms(net: Pick<Network, 'chain' | 'token' | 'minWithdrawal' | 'networkFee'>) {
  return {
    chain: net.chain,
    token: net.token,
    name: CHAIN_SPECS[net.chain].name,
    minWithdrawal: new Decimal(net.minWithdrawal ?? MIN_WITHDRAWAL),
    networkFee: new Decimal(net.networkFee ?? 0),
  };
}
export type NetworkTerms = ReturnType<typeof networkTerms>;

/** 400 amount_below_minimum naming the asset and network ("the minimum withdrawal on Ethereum is 5.00 USDC"). */
export function assertNetworkMinimum(amount: Decimal, terms: NetworkTerms, what = 'withdrawal') {
  if (amount.gte(terms.minWithdrawal)) return;
  const min = terms.minWithdrawal.toFixed(2);
  throw new ApiError('amount_below_minimum', `amount: the minimum ${what} on ${terms.name} is ${min} ${terms.token}`, [
    { path: 'amount', message: `must be at least ${min}` },
  ]);
}

/**
 * What sweeping `amount` off its deposit address costs the money swept: the network's sweep fee below its sweep
 * minimum, else nothing (lib/settlements/plan-sweep.ts decides it again from the address's balance, which is at
 * least this amount, so never more than this).
 */
export function sweepFeeOf(net: Pick<Network, 'sweepMinimum' | 'sweepFee'>, amount: Decimal.Value) {
  if (!net.sweepMinimum || new Decimal(amount).gte(net.sweepMinimum)) return new Decimal(0);
  return new Decimal(net.sweepFee ?? 0);
}
