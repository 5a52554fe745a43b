import type { Network } from '@/lib/chain/network';
import { resultOf, rpcBatch } from '@/lib/chain/rpc-batch';

/**
 * Each network's head block (`mode:chain` → block), read in parallel with a short timeout; a network that
 * fails or is slow is simply absent (gateway_chain_rpc_up 0), never reported as block 0.
 */
export async function readHeads(networks: Network[], timeoutMs = 3_000): Promise<Map<string, number>> {
  const heads = new Map<string, number>();
  await Promise.all(
    networks.map(async (net) => {
      if (!net.rpcUrl) return;
      try {
        const [o] = await rpcBatch(net.rpcUrl, [{ method: 'eth_blockNumber', params: [] }], { timeoutMs });
        heads.set(`${net.mode}:${net.chain}`, Number(BigInt(resultOf(o!, 'eth_blockNumber') as string)));
      } catch {
        /* absent: rpc_up 0 */
      }
    }),
  );
  return heads;
}
