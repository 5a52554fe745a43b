import { erc20Abi, formatUnits, parseUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { onFamily, tokensOf, type EvmNetwork, type Network } from '@/lib/chain/network';
import { publicClient } from '@/lib/chain/clients';
import { SOLANA_GAS_WALLET_LOW_SOL } from '@/lib/chain/solana/gas-wallet-low';
import { log } from '@/lib/log';
import { CHAIN_SPECS, type Asset, type ChainKey } from '@/lib/config/rails';
import type { Mode } from '@/lib/mode';

/** One enabled token held by the hot wallet, formatted at the token's own decimals. */
export interface TokenBalance {
  asset: Asset;
  amount: string;
}

export interface GasWallet {
  /** EIP-55, or `T…` on TRON. */
  address: string;
  /** Native coin, decimal string. */
  balance: string;
  /** Below `lowAt` (on TRON: energy for fewer than `energy.lowAtSweeps` sweeps): sweeps on this network stop when it runs out. */
  low: boolean;
  /** TRON's energy wallet: its stake for energy and the sweeps it can pay with delegated energy. */
  energy?: { stakedTrx: string; delegatableTrx: string; energyPerTrx: number; sweeps: number; lowAtSweeps: number };
}

export interface HotWallet {
  address: string;
  /** Native coin, decimal string. */
  balance: string;
  tokens: TokenBalance[];
}

interface NetworkFacts {
  mode: Mode;
  chain: ChainKey;
  chainId: number;
  nativeCoin: string;
  /** The gas wallet is low below this amount of the native coin. */
  lowAt: string;
}

/**
 * One network's wallets. `unreadable`: a read failed or timed out, so no balance
 * is shown (never 0); `not_configured`: no RPC URL or no wallet key. A wallet
 * without its key is null.
 */
export type NetworkWallets = NetworkFacts &
  (
    | { state: 'not_configured' }
    | { state: 'unreadable'; error: string; gasAddress: string | null; hotAddress: string | null }
    | { state: 'ok'; gas: GasWallet | null; hot: HotWallet | null }
  );

export const READ_TIMEOUT_MS = 5_000;
const DEFAULT_LOW_AT = '0.05';

/** What the console names a network by; the native coin from the rails table when the network does not say. */
export function factsOf(net: Network): NetworkFacts {
  return {
    mode: net.mode,
    chain: net.chain,
    chainId: net.chainId,
    nativeCoin: CHAIN_SPECS[net.chain].nativeCoin,
    // TRON's floor is in sweeps (read-tron-wallets.ts): its coin line keeps the default.
    lowAt: onFamily(net, { evm: (n) => n.gasWalletLow ?? DEFAULT_LOW_AT, tron: () => DEFAULT_LOW_AT, solana: () => SOLANA_GAS_WALLET_LOW_SOL }),
  };
}

export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    timer.unref?.();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** A short reason without the RPC URL (viem's full message names it, and it may carry a provider key). */
export function readError(err: unknown): string {
  const short = (err as { shortMessage?: unknown })?.shortMessage;
  if (typeof short === 'string' && short) return short;
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}

/** Reads one network's gas and hot wallet balances; any failed or slow read makes the whole network unreadable. */
export async function readNetworkWallets(net: EvmNetwork, timeoutMs = READ_TIMEOUT_MS): Promise<NetworkWallets> {
  const facts = factsOf(net);
  const gasAddress = net.gasWalletKey ? privateKeyToAddress(net.gasWalletKey) : null;
  const hotAddress = net.hotWalletKey ? privateKeyToAddress(net.hotWalletKey) : null;
  if (!net.rpcUrl || (!gasAddress && !hotAddress)) return { ...facts, state: 'not_configured' };
  const client = publicClient(net.rpcUrl);

  const readGas = async (address: Address): Promise<GasWallet> => {
    const wei = await client.getBalance({ address });
    return { address, balance: formatUnits(wei, 18), low: wei < parseUnits(facts.lowAt, 18) };
  };
  const readHot = async (address: Address): Promise<HotWallet> => {
    const [wei, tokens] = await Promise.all([
      client.getBalance({ address }),
      Promise.all(
        tokensOf(net).map(async (t): Promise<TokenBalance> => {
          const units = await client.readContract({ address: t.address, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
          return { asset: t.asset, amount: formatUnits(units, t.decimals) };
        }),
      ),
    ]);
    return { address, balance: formatUnits(wei, 18), tokens };
  };

  try {
    const [gas, hot] = await withTimeout(Promise.all([gasAddress && readGas(gasAddress), hotAddress && readHot(hotAddress)]), timeoutMs);
    return { ...facts, state: 'ok', gas: gas || null, hot: hot || null };
  } catch (err) {
    const error = readError(err);
    log.warn('console wallet balance read failed', { mode: net.mode, chain: net.chain, error });
    return { ...facts, state: 'unreadable', error, gasAddress, hotAddress };
  }
}
