import { networkVariable } from '@/lib/config/rail-variables';
import { chainIdProblem, judgeTokens } from './judge-rail';
import { tokensOf, type Network } from './network';
import type { RailProblem } from './rail-stops';
import { RpcReadError } from './rpc-batch';
import { tronClientOf } from './tron-network-client';
import { readTrc20Meta } from './tron/resources';

/**
 * The rail check of a TRON network: the chain id from its JSON-RPC (`eth_chainId`, the last 4 bytes of
 * the genesis block id) and each token's decimals() and symbol() by `/wallet/triggerconstantcontract`,
 * judged as on EVM (check-rail.ts). A node that does not answer throws RpcReadError and records nothing.
 */
export async function checkTronRail(net: Network): Promise<RailProblem[]> {
  if (!net.rpcUrl) return [];
  const rpcVariable = networkVariable(net.mode, net.chain, 'RPC_URL');
  const client = tronClientOf(net, 10_000);
  const unreadable = (what: string, err: unknown) =>
    new RpcReadError(`${rpcVariable}: the rail check could not read ${what} from the ${net.mode} ${net.chain} node (${(err as Error).message})`, {
      cause: err,
    });
  let answered: number;
  try {
    const [id] = await client.jsonRpc([{ method: 'eth_chainId', params: [] }]);
    if (typeof id !== 'string' || !/^0x[0-9a-f]+$/i.test(id)) throw new Error(`eth_chainId answered ${JSON.stringify(id)}`);
    answered = Number(BigInt(id));
  } catch (err) {
    throw unreadable('eth_chainId', err);
  }
  const wrongChain = chainIdProblem(net, answered);
  if (wrongChain) return [wrongChain];
  const found = await Promise.all(
    tokensOf(net).map(async (t) => {
      try {
        return { t, ...(await readTrc20Meta(client, t.address)) };
      } catch (err) {
        throw unreadable(`${t.asset} decimals() and symbol()`, err);
      }
    }),
  );
  return judgeTokens(net, found);
}
