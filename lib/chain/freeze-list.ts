import { decodeFunctionResult, encodeFunctionData, type Hex } from 'viem';
import { freezeListOf, type FreezeListFunction } from '@/lib/config/rails';
import { familyOps } from './families';
import type { EvmAddress, WireAddress } from './common/address-brand';
import { ADDRESS_CODECS } from './address-codecs';
import { isNetworkReady, type EvmNetwork, type Network } from './network';
import { rpcBatch, RpcReadError, type RpcCall, type RpcOutcome } from './rpc-batch';

const abiOf = (fn: FreezeListFunction) =>
  [
    { type: 'function', name: fn, stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }], outputs: [{ name: '', type: 'bool' }] },
  ] as const;

/** The eth_call asking a rail's token contract whether `address` is frozen, or null when the contract has no freeze list. */
export function freezeListCall(net: Pick<EvmNetwork, 'chain' | 'token' | 'tokenAddress'>, address: EvmAddress): RpcCall | null {
  const fn = freezeListOf(net.chain, net.token);
  if (!fn || !net.tokenAddress) return null;
  return {
    method: 'eth_call',
    params: [{ to: net.tokenAddress, data: encodeFunctionData({ abi: abiOf(fn), functionName: fn, args: [address] }) }, 'latest'],
  };
}

/**
 * The answer to freezeListCall: true when frozen. Anything but a well-formed bool (an RPC error, a revert, empty
 * data from a contract without the function) throws RpcReadError: an unread list is never "not frozen".
 */
export function frozenFrom(net: Pick<Network, 'chain' | 'token'>, outcome: RpcOutcome): boolean {
  const fn = freezeListOf(net.chain, net.token)!;
  if (!outcome.ok) throw new RpcReadError(`${net.token} ${fn} on ${net.chain}: ${outcome.message.slice(0, 200)}`);
  try {
    return decodeFunctionResult({ abi: abiOf(fn), functionName: fn, data: outcome.result as Hex });
  } catch {
    throw new RpcReadError(`${net.token} ${fn} on ${net.chain} gave no bool (${String(outcome.result).slice(0, 80)})`);
  }
}

/**
 * Whether the rail's token contract has frozen `address` (Tether's and Circle's lists, declared per rail in
 * lib/config/rails.ts): read from the chain on the network the money would move on, through its family's API.
 * null: this token has no freeze list. A failed or malformed read throws; the caller refuses, never passes.
 */
export async function isFrozen(net: Network, address: WireAddress): Promise<boolean | null> {
  const fn = freezeListOf(net.chain, net.token);
  if (!fn || !isNetworkReady(net)) return null;
  // Parsed again by the network's own codec: the table cannot tell the types which family's address this is, so the codec does at run time.
  const own = ADDRESS_CODECS[net.family].parse(address);
  return familyOps(net.chain).readFreezeList(net, fn, own);
}

/** readFreezeList on an EVM network: one eth_call (evm-family.ts). */
export async function readEvmFreezeList(net: EvmNetwork & { rpcUrl: string }, address: EvmAddress): Promise<boolean> {
  const [outcome] = await rpcBatch(net.rpcUrl, [freezeListCall(net, address)!], { timeoutMs: 10_000 });
  return frozenFrom(net, outcome!);
}
