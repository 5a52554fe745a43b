import { decodeFunctionResult, encodeFunctionData, erc20Abi, hexToString, type Hex } from 'viem';
import { networkVariable } from '@/lib/config/rail-variables';
import { chainIdProblem, judgeTokens } from './judge-rail';
import { tokensOf, type Network, type TokenContract } from './network';
import type { RailProblem } from './rail-stops';
import { rpcBatch, RpcReadError, type RpcOutcome } from './rpc-batch';

const REVERT = /revert/i;

/** symbol() as a string, or as the bytes32 some older tokens return; null when it is neither. */
function decodeSymbol(data: Hex): string | null {
  try {
    return decodeFunctionResult({ abi: erc20Abi, functionName: 'symbol', data });
  } catch {
    return data.length === 66 ? hexToString(data, { size: 32 }).replace(/\0+$/, '') : null;
  }
}

/**
 * A contract's answer to a view call: its data, or null when the chain answered that there is nothing
 * there or it reverts (an answer about the contract). Anything else (transport, timeout, a node error
 * that is not a revert) is no answer: RpcReadError, never a pass.
 */
function answerOf(o: RpcOutcome, what: string, rpcVariable: string): Hex | null {
  if (o.ok) return (o.result as Hex | null) && o.result !== '0x' ? (o.result as Hex) : null;
  if (o.code === 3 || REVERT.test(o.message)) return null;
  throw new RpcReadError(`${rpcVariable}: ${what} could not be read (${o.message.slice(0, 120)})`);
}

/** checkRail on an EVM network: eth_chainId and each token's decimals() and symbol() in one JSON-RPC batch. */
export async function checkEvmRail(net: Network & { rpcUrl: string }): Promise<RailProblem[]> {
  const rpcVariable = networkVariable(net.mode, net.chain, 'RPC_URL');
  const tokens = tokensOf(net);
  const call = (t: TokenContract, fn: 'decimals' | 'symbol') => ({
    method: 'eth_call',
    params: [{ to: t.address, data: encodeFunctionData({ abi: erc20Abi, functionName: fn }) }, 'latest'],
  });
  let outcomes: RpcOutcome[];
  try {
    outcomes = await rpcBatch(net.rpcUrl, [
      { method: 'eth_chainId', params: [] },
      ...tokens.flatMap((t) => [call(t, 'decimals'), call(t, 'symbol')]),
    ]);
  } catch (err) {
    throw new RpcReadError(`${rpcVariable}: the rail check could not reach the ${net.mode} ${net.chain} node (${(err as Error).message})`, {
      cause: err,
    });
  }
  const [chainIdOutcome, ...tokenOutcomes] = outcomes;
  if (!chainIdOutcome!.ok) throw new RpcReadError(`${rpcVariable}: eth_chainId could not be read (${chainIdOutcome!.message.slice(0, 120)})`);
  const wrongChain = chainIdProblem(net, Number(BigInt(chainIdOutcome!.result as string)));
  if (wrongChain) return [wrongChain];
  // Token answers are judged only once the node is known to be the right chain.
  const found = tokens.map((t, i) => {
    const decimals = answerOf(tokenOutcomes[2 * i]!, `${t.asset} decimals()`, rpcVariable);
    const symbol = answerOf(tokenOutcomes[2 * i + 1]!, `${t.asset} symbol()`, rpcVariable);
    return {
      t,
      decimals: decimals === null ? null : Number(decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data: decimals })),
      symbol: symbol === null ? null : decodeSymbol(symbol),
    };
  });
  return judgeTokens(net, found);
}
