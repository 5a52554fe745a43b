import { decodeFunctionResult, encodeFunctionData, erc20Abi, hexToString, type Hex } from 'viem';
import { expectedSymbols, CHAIN_SPECS } from '@/lib/config/rails';
import { networkVariable, tokenVariable } from '@/lib/config/rail-variables';
import { tokensOf, type Network, type TokenContract } from './network';
import { networkKey, recordVerdict, tokenKey, type RailProblem } from './rail-stops';
import { rpcBatch, RpcReadError, type RpcOutcome } from './rpc-batch';
import { checkTronRail } from './check-tron-rail';

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
 * an unanswered check is never a pass.
 */
export async function checkRail(net: Network): Promise<RailProblem[]> {
  if (!net.rpcUrl) return [];
  // TRON: its HTTP API and JSON-RPC, not an EVM node's eth_call.
  if (CHAIN_SPECS[net.chain].family === 'tron') return checkTronRail(net);
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
  const answered = Number(BigInt(chainIdOutcome!.result as string));
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
  // Token answers are judged only once the node is known to be the right chain.
  const problems: RailProblem[] = [];
  const found = tokens.map((t, i) => ({
    t,
    decimals: answerOf(tokenOutcomes[2 * i]!, `${t.asset} decimals()`, rpcVariable),
    symbol: answerOf(tokenOutcomes[2 * i + 1]!, `${t.asset} symbol()`, rpcVariable),
  }));
  for (const { t, decimals, symbol } of found) {
    const rail = `${net.chain}:${t.asset}`;
    const expected = t.symbols ?? expectedSymbols(net.chain, t.asset);
    const onChainDecimals = decimals === null ? null : Number(decodeFunctionResult({ abi: erc20Abi, functionName: 'decimals', data: decimals }));
    const onChainSymbol = symbol === null ? null : decodeSymbol(symbol);
    let problem: RailProblem | undefined;
    const of = (name: 'ADDRESS' | 'DECIMALS', message: string): RailProblem => ({
      mode: net.mode,
      chain: net.chain,
      token: t.asset,
      variable: tokenVariable(net.mode, net.chain, t.asset, name),
      message: `${message}; the ${net.mode} ${rail} rail is stopped`,
    });
    if (onChainDecimals === null) problem = of('ADDRESS', `${t.address} on chain ${net.chainId} has no decimals(): not a token contract`);
    else if (onChainDecimals !== t.decimals) {
      problem = of('DECIMALS', `the ${rail} contract ${t.address} has ${onChainDecimals} decimals, the configuration says ${t.decimals}`);
    } else if (onChainSymbol === null || !expected.includes(onChainSymbol)) {
      const is = onChainSymbol === null ? 'a token without a readable symbol()' : `"${onChainSymbol}"`;
      const symbolVariable = tokenVariable(net.mode, net.chain, t.asset, 'SYMBOL');
      problem = of(
        'ADDRESS',
        `the contract ${t.address} is ${is}, expected ${expected.map((s) => `"${s}"`).join(' or ')} for ${rail} (a test token named otherwise: set ${symbolVariable})`,
      );
    }
    recordVerdict(tokenKey(net, t), problem ?? 'ok');
    if (problem) problems.push(problem);
  }
  recordVerdict(networkKey(net), 'ok');
  return problems;
}
