import { keccak256, toHex, type Address, type Hex } from 'viem';
import type { Plan } from '@/db/schema';
import { getRail, onFamily, type Network } from '@/lib/chain/network';
import { hasPermit, type Asset, type ChainKey } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';

/** What a pull needs of a rail: its node, token, the collector and the operator (gas wallet) key; the admin key if configured. */
export interface CollectorNetwork {
  mode: Mode;
  chainId: number;
  rpcUrl: string;
  tokenAddress: Address;
  decimals: number;
  collectorAddress: Address;
  operatorKey: Hex;
  adminKey?: Hex;
  /** USD per unit of the gas coin and the network's flat transfer fee: the pull's gas priced in the token (price-pull-gas.ts). */
  gasCoinUsd?: string;
  networkFee?: string;
  chain?: ChainKey;
  /** The token takes an EIP-2612 permit (USDC): the payer may set up by two signatures (permitAndAuthorize). */
  permit?: boolean;
}

export type RailLookup = (mode: Mode, chain: ChainKey, token: Asset) => Network | undefined;

/**
 * The rail's collector, or null when it has none (TRON, Solana, or an EVM network without `<MODE>_<CHAIN>_COLLECTOR_ADDRESS`
 * or its node, token or gas wallet): such subscriptions are paid by e-mailed invoice.
 */
export function collectorNetworkOf(net: Network | undefined): CollectorNetwork | null {
  if (!net) return null;
  return onFamily(net, {
    evm: (n): CollectorNetwork | null =>
      n.collectorAddress && n.rpcUrl && n.tokenAddress && n.gasWalletKey
        ? {
            mode: n.mode,
            chainId: n.chainId,
            rpcUrl: n.rpcUrl,
            tokenAddress: n.tokenAddress,
            decimals: n.decimals,
            collectorAddress: n.collectorAddress,
            operatorKey: n.gasWalletKey,
            adminKey: n.collectorAdminKey,
            gasCoinUsd: n.gasCoinUsd,
            networkFee: n.networkFee,
            chain: n.chain,
            permit: hasPermit(n.chain, n.token),
          }
        : null,
    tron: () => null,
    solana: () => null,
  });
}

export const collectorRail =
  (lookup: RailLookup = getRail) =>
  (mode: Mode, chain: ChainKey, token: Asset) =>
    collectorNetworkOf(lookup(mode, chain, token));

/** The bytes32 id a payer authorizes on the collector for a subscription: keccak256 of its id (`sub_…`). */
export function permissionIdOf(subscriptionId: string): Hex {
  return keccak256(toHex(subscriptionId));
}

const DAY = 86_400;
/** The shortest length of one plan interval in seconds (a month is at least 28 days): the on-chain period the payer authorizes. */
export function periodSecondsOf(plan: Pick<Plan, 'interval' | 'intervalCount'>): number {
  const days = { day: 1, week: 7, month: 28, year: 365 }[plan.interval];
  return days * DAY * plan.intervalCount;
}
