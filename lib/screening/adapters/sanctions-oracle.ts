import { decodeFunctionResult, encodeFunctionData, type Address, type Hex } from 'viem';
import { findNetwork } from '@/lib/chain/network';
import { rpcBatch } from '@/lib/chain/rpc-batch';
import { chainsOf, type ChainKey } from '@/lib/config/rails';
import { AdapterFailure, type ScreeningAdapter } from './adapter';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

const ABI = [
  { type: 'function', name: 'isSanctioned', stateMutability: 'view', inputs: [{ name: 'addr', type: 'address' }], outputs: [{ type: 'bool' }] },
] as const;

/**
 * The networks to read the oracle on, with their RPC: the ones named, or every live EVM network that has an RPC.
 * Live whatever the money's mode: the oracle is a mainnet contract (testnets have none). A named network without
 * an RPC is a failure (nowhere to read it), never skipped.
 */
function rpcUrls(chains: readonly ChainKey[] | undefined): string[] {
  if (!chains) return chainsOf('evm').flatMap((c) => findNetwork('live', c)?.rpcUrl ?? []);
  return chains.map((c) => {
    const url = findNetwork('live', c)?.rpcUrl;
    if (!url) throw new AdapterFailure('not configured');
    return url;
  });
}

/** One eth_call of `isSanctioned(address)`: a bool, or an AdapterFailure (no answer, a revert, no bool: no code there). */
async function readOracle(rpcUrl: string, oracle: Address, address: Address, signal: AbortSignal): Promise<boolean> {
  const data = encodeFunctionData({ abi: ABI, functionName: 'isSanctioned', args: [address] });
  let outcome;
  try {
    [outcome] = await rpcBatch(rpcUrl, [{ method: 'eth_call', params: [{ to: oracle, data }, 'latest'] }], { signal });
  } catch {
    throw new AdapterFailure(signal.aborted ? 'timeout' : 'unreachable');
  }
  if (!outcome!.ok) throw new AdapterFailure('reverted');
  try {
    return decodeFunctionResult({ abi: ABI, functionName: 'isSanctioned', data: outcome!.result as Hex });
  } catch {
    throw new AdapterFailure('malformed answer');
  }
}

/**
 * Chainalysis's sanctions oracle contract (SanctionsList, `isSanctioned(address) returns (bool)`), the same address
 * on several EVM networks, read through each chosen network's own RPC (no key, no third-party HTTP). EVM addresses
 * only. Every chosen network must answer (lists are updated per network): listed on any stops the address; one
 * that cannot be read makes the whole read a failure, never clean.
 */
export function sanctionsOracleAdapter(cfg: { address: Address; chains?: readonly ChainKey[] }): ScreeningAdapter {
  return {
    name: 'sanctions_oracle',
    families: ['evm'],
    async check(_family, wireAddress, signal) {
      const urls = rpcUrls(cfg.chains);
      if (urls.length === 0) throw new AdapterFailure('not configured');
      const answers = await Promise.all(urls.map((u) => readOracle(u, cfg.address, EVM_ADDRESS_CODEC.parse(wireAddress), signal)));
      return answers.some(Boolean);
    },
  };
}
