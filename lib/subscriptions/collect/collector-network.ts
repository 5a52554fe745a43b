import { keccak256, toHex, type Hex } from 'viem';
import type { Plan } from '@/db/schema';
import { getRail, onFamily, type EvmNetwork, type Network, type TronNetwork } from '@/lib/chain/network';
import { hasPermit, type Asset, type ChainFamily, type ChainKey } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';

/**
 * What a pull needs of a rail: its family (which picks the pull's code, pull-ops.ts), node, token, the collector and
 * the operator key (the gas wallet on EVM, the energy wallet on TRON); the admin key if configured. Addresses are the
 * family's wire form (`0x…` on EVM, `T…` on TRON).
 */
export interface CollectorNetwork {
  family: ChainFamily;
  mode: Mode;
  chainId: number;
  rpcUrl: string;
  tokenAddress: string;
  decimals: number;
  collectorAddress: string;
  operatorKey: Hex;
  adminKey?: Hex;
  /** USD per unit of the gas coin and the network's flat transfer fee: the pull's gas priced in the token (price-pull-gas.ts). */
  gasCoinUsd?: string;
  networkFee?: string;
  chain?: ChainKey;
  /** The token takes an EIP-2612 permit (USDC; `hasPermit` of the rails table): the payer may set up by two signatures (permitAndAuthorize). */
  permit: boolean;
  /** TRON: a pull the energy wallet's staked energy cannot pay may burn TRX (`<MODE>_TRON_ALLOW_TRX_BURN`), as a sweep may. */
  allowTrxBurn?: boolean;
}

export type RailLookup = (mode: Mode, chain: ChainKey, token: Asset) => Network | undefined;

/**
 * The rail's collector, or null when it has none (Solana, or an EVM network without `<MODE>_<CHAIN>_COLLECTOR_ADDRESS`
 * or its node, token or gas wallet): such subscriptions are paid by e-mailed invoice.
 */
export function collectorNetworkOf(net: Network | undefined): CollectorNetwork | null {
  if (!net) return null;
  // EVM and TRON read the same settings; the energy wallet is TRON's operator (pulls use its staked energy: the
  // collector charges the caller all of it), the gas wallet EVM's.
  const withCollector = (n: EvmNetwork | TronNetwork): CollectorNetwork | null =>
    n.collectorAddress && n.rpcUrl && n.tokenAddress && n.gasWalletKey
      ? {
          family: n.family,
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
          // From the rails table: USDC's EIP-2612 (no TRON token has one).
          permit: hasPermit(n.chain, n.token),
          allowTrxBurn: 'allowTrxBurn' in n ? n.allowTrxBurn : undefined,
        }
      : null;
  return onFamily(net, { evm: withCollector, tron: withCollector, solana: () => null });
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
