import { familyOps } from './families';
import type { Network } from './network';
import type { RailProblem } from './rail-stops';

/**
 * Reads a network's chain id and each enabled token's decimals() and symbol() from its node, in one
 * JSON-RPC batch (one node answers all), and compares them with the configuration: the node must be the
 * configured chain, each contract must be the configured token at the configured decimals. Records the
 * verdicts (lib/chain/rail-stops.ts: a stopped rail leaves getNetwork's answers) and returns the problems,
 * each naming the variable at fault. A failed or timed-out read throws RpcReadError and records nothing:
 * an unanswered check is never a pass. Each family reads through its own API (lib/chain/families.ts: EVM's
 * JSON-RPC in evm/check-rail.ts, TRON's in check-tron-rail.ts).
 */
export async function checkRail(net: Network): Promise<RailProblem[]> {
  if (!net.rpcUrl) return [];
  return familyOps(net.chain).checkRail(net as Network & { rpcUrl: string });
}
