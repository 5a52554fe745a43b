import { decodeFunctionResult, erc20Abi, type Hex } from 'viem';
import { CHAIN_SPECS, expectedSymbols } from '@/lib/config/rails';
import { networkVariable, tokenVariable } from '@/lib/config/rail-variables';
import { tokensOf, type Network, type TokenContract } from './network';
import { networkKey, recordVerdict, tokenKey, type RailProblem } from './rail-stops';
import { RpcReadError } from './rpc-batch';
import { toHex41 } from './tron/address';
import { tronClientOf } from './tron-network-client';

/** A view call's answer: its data, or null when the contract reverts or is not there (an answer); a failed read throws. */
async function view(net: Network, t: TokenContract, selector: 'decimals()' | 'symbol()', rpcVariable: string): Promise<Hex | null> {
  const client = tronClientOf(net);
  let out: { result?: { result?: boolean; code?: string }; constant_result?: string[]; transaction?: { ret?: { ret?: string }[] } };
  try {
    out = await client.wallet('triggerconstantcontract', {
      owner_address: toHex41(t.address),
      contract_address: toHex41(t.address),
      function_selector: selector,
      parameter: '',
    });
  } catch (err) {
    throw new RpcReadError(`${rpcVariable}: ${t.asset} ${selector} could not be read (${(err as Error).message.slice(0, 120)})`, { cause: err });
  }
  if (out.result?.code === 'CONTRACT_VALIDATE_ERROR' || out.transaction?.ret?.[0]?.ret === 'FAILED') return null;
  const value = out.constant_result?.[0];
  return value ? (`0x${value}` as Hex) : null;
}

/**
 * The rail check of a TRON network (lib/chain/check-rail.ts does EVM's): the node's JSON-RPC `eth_chainId` must be
 * the configured chain id, each token's `decimals()` and `symbol()` (TriggerConstantContract) the configured ones.
 * Records the verdicts as checkRail does; a failed read throws RpcReadError and records nothing.
 */
export async function checkTronRail(net: Network): Promise<RailProblem[]> {
  const rpcVariable = networkVariable(net.mode, net.chain, 'RPC_URL');
  let answered: number;
  try {
    const [id] = await tronClientOf(net).jsonRpc([{ method: 'eth_chainId', params: [] }]);
    answered = Number(BigInt(String(id)));
  } catch (err) {
    throw new RpcReadError(`${rpcVariable}: the rail check could not reach the ${net.mode} ${net.chain} node (${(err as Error).message})`, {
      cause: err,
    });
  }
  if (answered !== net.chainId) {
    const problem: RailProblem = {
      mode: net.mode,
      chain: net.chain,
      variable: networkVariable(net.mode, net.chain, 'CHAIN_ID'),
      message: `the node at ${rpcVariable} is chain ${answered}, not the configured ${net.chainId} (${CHAIN_SPECS[net.chain].name}, ${net.mode}); every ${net.chain} rail of this mode is stopped`,
    };
    recordVerdict(networkKey(net), problem);
    return [problem];
  }
  const problems: RailProblem[] = [];
  for (const t of tokensOf(net)) {
    const rail = `${net.chain}:${t.asset}`;
    const decimals = await view(net, t, 'decimals()', rpcVariable);
    const symbol = await view(net, t, 'symbol()', rpcVariable);
    const onChainDecimals = decimals === null ? null : Number(decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data: decimals }));
    let onChainSymbol: string | null = null;
    try {
      onChainSymbol = symbol === null ? null : decodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', data: symbol });
    } catch {
      onChainSymbol = null;
    }
    const expected = t.symbols ?? expectedSymbols(net.chain, t.asset);
    const of = (name: 'ADDRESS' | 'DECIMALS', message: string): RailProblem => ({
      mode: net.mode,
      chain: net.chain,
      token: t.asset,
      variable: tokenVariable(net.mode, net.chain, t.asset, name),
      message: `${message}; the ${net.mode} ${rail} rail is stopped`,
    });
    let problem: RailProblem | undefined;
    if (onChainDecimals === null) problem = of('ADDRESS', `${t.address} on chain ${net.chainId} has no decimals(): not a token contract`);
    else if (onChainDecimals !== t.decimals)
      problem = of('DECIMALS', `the ${rail} contract has ${onChainDecimals} decimals, the configuration says ${t.decimals}`);
    else if (onChainSymbol === null || !expected.includes(onChainSymbol))
      problem = of('ADDRESS', `the contract ${t.address} is not ${expected.join(' or ')}`);
    recordVerdict(tokenKey(net, t), problem ?? 'ok');
    if (problem) problems.push(problem);
  }
  recordVerdict(networkKey(net), 'ok');
  return problems;
}
