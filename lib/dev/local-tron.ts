import { planTronNode, startTronNode, type TronNode } from '@/devtools/tron-node/tron-node';
import { tronNodeClient } from '@/lib/chain/tron/node-client';
import { localTronEnv } from './local-tron-env';
import { deployTronCollector, planTronCollector, tronCollectorEnv } from './tron-collector';

/**
 * A mode's TRON stand-in for `npm run dev` (devtools/tron-node, docs/tron.md §10): 3 s blocks like TRON's, its USDT,
 * funded energy and custody wallets, the subscription collector (lib/dev/tron-collector.ts: the energy wallet stakes
 * for energy and deploys it, so TRON subscriptions are collected automatically), and in test mode a faucet holding
 * USDT for "Simulate payment". Planned first
 * (issue 45): `env` points the mode at it before it runs, so Next starts meanwhile; `start` starts it and throws if
 * it came out other than planned (URL, USDT, chain id). `started` gets the node as soon as it runs (to stop it).
 */
export function planLocalTron(opts: {
  mode: 'test' | 'live';
  port: number;
  chainId: number;
  blockTimeMs: number;
  started: (node: TronNode) => void;
}): { env: Record<string, string>; start: () => Promise<void> } {
  const { mode, port, chainId } = opts;
  const plan = planTronNode({ port });
  const collector = planTronCollector({ chainId, owner: plan.keys.gas, plannedAtMs: Date.now() });
  const start = async () => {
    const node = await startTronNode({ port, blockTimeMs: opts.blockTimeMs, chainId });
    opts.started(node);
    const [chainIdHex] = await tronNodeClient({ url: node.url, timeoutMs: 5_000 }).jsonRpc([{ method: 'eth_chainId', params: [] }]);
    if (node.url !== plan.url || node.usdt !== plan.usdt || Number(chainIdHex) !== chainId) {
      throw new Error(
        `${mode} TRON stand-in: ${node.url}, USDT ${node.usdt}, chain id ${Number(chainIdHex)} differ from the planned ones (planTronNode)`,
      );
    }
    if (mode === 'test') await node.mintUsdt(node.keys.other.address, 1_000_000_000_000n); // 1,000,000 USDT (6 decimals)
    const deployed = await deployTronCollector(node.url, node.keys.gas, collector);
    console.log(
      `[dev] ${mode} TRON chain: stand-in ${node.url} (chain id ${chainId}), USDT ${node.usdt} (6 decimals), collector ${deployed.address} (${deployed.energy} energy)`,
    );
  };
  const adminKey = `0x${plan.keys.gas.privateKey}`;
  return { env: { ...localTronEnv(mode, plan, chainId), ...tronCollectorEnv(mode, collector.address, adminKey) }, start };
}
