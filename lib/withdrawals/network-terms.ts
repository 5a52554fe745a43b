import { ApiError } from '@/lib/api/errors';
import type { Network } from '@/lib/chain/network';
import { WITHDRAWAL_WORST_LAMPORTS } from '@/lib/chain/solana/withdrawal-cost';
import { CHAIN_SPECS, familyOf, type ChainFamily } from '@/lib/config/rails';
import { Decimal } from '@/lib/money';
import { MIN_WITHDRAWAL } from './schemas';

/**
 * The most one withdrawal's transfer can cost in the gas coin's base unit, where the family knows it exactly (Solana:
 * the destination token account's rent and two signatures, docs/solana.md §6.2); 0 where the flat fee is the
 * operator's estimate alone (gas prices move).
 */
const WORST_GAS: Record<ChainFamily, bigint> = { evm: 0n, tron: 0n, solana: WITHDRAWAL_WORST_LAMPORTS };

/** WORST_GAS in the token at the network's gas coin price, rounded up to the cent; 0 without a price. */
function worstGasFee(net: Pick<Network, 'chain'> & { gasCoinUsd?: string }): Decimal {
  const lamports = WORST_GAS[familyOf(net.chain)];
  if (lamports === 0n || !net.gasCoinUsd) return new Decimal(0);
  const coin = new Decimal(lamports.toString()).div(new Decimal(10).pow(CHAIN_SPECS[net.chain].nativeDecimals));
  return coin.times(net.gasCoinUsd).toDecimalPlaces(2, Decimal.ROUND_UP);
}

/**
 * What a withdrawal on one rail costs beside the tenant's percentage: the network's minimum and flat
 * fee (lib/config/network-costs.ts; a network without them, as tests build, has the spec's 0.01 and none).
 * The flat fee is what a withdrawal reserves, so it is never below the most its transfer can cost where that is
 * known (worstGasFee: a Solana destination's token account rent), whatever the configuration says: what the API
 * accepts, the gateway can complete without paying for it. A lane that learns the actual cost gives back the rest
 * (refund-unused-network-fee.ts).
 */
export function networkTerms(net: Pick<Network, 'chain' | 'token' | 'minWithdrawal' | 'networkFee'> & { gasCoinUsd?: string }) {
  return {
    chain: net.chain,
    token: net.token,
    name: CHAIN_SPECS[net.chain].name,
    minWithdrawal: new Decimal(net.minWithdrawal ?? MIN_WITHDRAWAL),
    networkFee: Decimal.max(new Decimal(net.networkFee ?? 0), worstGasFee(net)),
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
