import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { networkVariable, tokenVariable } from '@/lib/config/rail-variables';
import { tokensOf, type Network } from './network';
import { networkKey, recordVerdict, type RailProblem } from './rail-stops';
import { RpcReadError } from './rpc-batch';
import { clusterOfGenesis, SOLANA_CLUSTERS } from './solana/genesis';
import { solanaRpc, type SolanaRpc } from './solana/rpc';

// SPL Token's Mint layout: mint authority (4 + 32 bytes), supply (8), then decimals (1 byte).
const MINT_DECIMALS_OFFSET = 44;
const MINT_SIZE = 82;

/**
 * The rail check of a Solana network: the node's genesis hash must be the cluster its chain id stands for
 * (solana/genesis.ts: mainnet-beta for live, devnet for test, the stand-in in development), else every rail of the
 * network stops, as a wrong chain id stops an EVM or TRON network; then each token's mint read at `confirmed` must be
 * an SPL Token mint (owned by the Token program, not Token-2022) with the configured decimals. A mint has no
 * on-chain symbol, so none is checked. A node that does not answer throws RpcReadError and records nothing.
 */
export async function checkSolanaRail(net: Network): Promise<RailProblem[]> {
  if (!net.rpcUrl) return [];
  const rpc = solanaRpc(net.rpcUrl, { timeoutMs: 10_000 });
  const wrongCluster = await clusterProblem(net, rpc);
  if (wrongCluster) return [wrongCluster];
  const problems: RailProblem[] = [];
  for (const t of tokensOf(net)) {
    let info;
    try {
      info = (await rpc.call('getAccountInfo', [t.address, { encoding: 'base64', commitment: 'confirmed' }])).value;
    } catch (err) {
      throw new RpcReadError(`the rail check could not read the ${t.asset} mint from the ${net.mode} ${net.chain} node (${(err as Error).message})`, {
        cause: err,
      });
    }
    const data = info && Array.isArray(info.data) ? Buffer.from(info.data[0], 'base64') : null;
    const variable = tokenVariable(net.mode, net.chain, t.asset, 'ADDRESS');
    const problem = (message: string) => problems.push({ mode: net.mode, chain: net.chain, token: t.asset, variable, message });
    if (!info || !data) problem(`no account at ${t.address} on the ${net.mode} ${net.chain} node: not the ${t.asset} mint`);
    else if (info.owner !== TOKEN_PROGRAM_ADDRESS || data.length !== MINT_SIZE)
      problem(`${t.address} is not an SPL Token mint (owner ${info.owner})`);
    else if (data[MINT_DECIMALS_OFFSET] !== t.decimals)
      problem(`the mint ${t.address} has ${data[MINT_DECIMALS_OFFSET]} decimals, expected ${t.decimals} for ${net.chain}:${t.asset}`);
  }
  return problems;
}

/** The node's genesis hash against the cluster of the network's chain id: a mismatch is recorded and returned. */
async function clusterProblem(net: Network, rpc: SolanaRpc): Promise<RailProblem | undefined> {
  const expected = SOLANA_CLUSTERS.get(net.chainId);
  if (!expected) return undefined;
  const rpcVariable = networkVariable(net.mode, net.chain, 'RPC_URL');
  let answered: string;
  try {
    answered = await rpc.call('getGenesisHash', []);
  } catch (err) {
    throw new RpcReadError(
      `${rpcVariable}: the rail check could not read the genesis hash from the ${net.mode} ${net.chain} node (${(err as Error).message})`,
      {
        cause: err,
      },
    );
  }
  if (answered === expected.genesisHash) return undefined;
  const problem: RailProblem = {
    mode: net.mode,
    chain: net.chain,
    variable: rpcVariable,
    message: `the node at ${rpcVariable} serves ${clusterOfGenesis(answered) ?? 'an unknown cluster'} (genesis ${answered}), not ${expected.name} (genesis ${expected.genesisHash}), which ${net.mode} mode's chain id ${net.chainId} stands for; every ${net.chain} rail of this mode is stopped`,
  };
  recordVerdict(networkKey(net), problem);
  return problem;
}
