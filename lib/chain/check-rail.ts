import { decodeFunctionResult, encodeFunctionData, erc20Abi, hexToString, type Hex } from 'viem';
import { familyOf } from '@/lib/config/rails';
import { checkTronRail } from './check-tron-rail';
import { chainIdProblem, judgeTokens } from './judge-rail';
import { networkVariable } from '@/lib/config/rail-variables';
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

/**
 * Reads a network's chain id and each enabled token's decimals() and symbol() from its node, in one
 * JSON-RPC batch (one node answers all), and compares them with the configuration: the node must be the
 * configured chain, each contract must be the configured token at the configured decimals. Records the
 * verdicts (lib/chain/rail-stops.ts: a stopped rail leaves getNetwork's answers) and returns the problems,
 * each naming the variable at fault. A failed or timed-out read throws RpcReadError and records nothing:
 * an unanswered check is never a pass. A TRON network is read through its own API (check-tron-rail.ts).
 */
export async function checkRail(net: Network): Promise<RailProblem[]> {
  if (!net.rpcUrl) return [];
  if (familyOf(net.chain) === 'tron') return checkTronRail(net);
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
