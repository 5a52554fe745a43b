import { CHAIN_SPECS, expectedSymbols } from '@/lib/config/rails';
import { networkVariable, tokenVariable } from '@/lib/config/rail-variables';
import type { Network, TokenContract } from './network';
import { networkKey, recordVerdict, tokenKey, type RailProblem } from './rail-stops';

/**
 * The node's chain id against the configuration: a mismatch stops every rail of the network (recorded)
 * and is returned; undefined when it matches.
 */
export function chainIdProblem(net: Network, answered: number): RailProblem | undefined {
  if (answered === net.chainId) return undefined;
  const rpcVariable = networkVariable(net.mode, net.chain, 'RPC_URL');
  const problem: RailProblem = {
    mode: net.mode,
    chain: net.chain,
    variable: networkVariable(net.mode, net.chain, 'CHAIN_ID'),
    message: `the node at ${rpcVariable} is chain ${answered}, not the configured ${net.chainId} (${CHAIN_SPECS[net.chain].name}, ${net.mode}); every ${net.chain} rail of this mode is stopped`,
  };
  recordVerdict(networkKey(net), problem);
  return problem;
}

/**
 * Each token's decimals() and symbol() as read from the chain (null: no answer about a token there)
 * against the configuration; records each verdict and the network's `ok`, returns the problems.
 */
export function judgeTokens(net: Network, found: { t: TokenContract; decimals: number | null; symbol: string | null }[]): RailProblem[] {
  const problems: RailProblem[] = [];
  for (const { t, decimals: onChainDecimals, symbol: onChainSymbol } of found) {
    const rail = `${net.chain}:${t.asset}`;
    const expected = t.symbols ?? expectedSymbols(net.chain, t.asset);
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
