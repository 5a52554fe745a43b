import { familyOps } from '@/lib/chain/families';
import type { Network } from '@/lib/chain/network';

/**
 * Each network's head block (`mode:chain` → block), read in parallel with a short timeout; a network that
 * fails or is slow is simply absent (gateway_chain_rpc_up 0), never reported as block 0.
 */
export async function readHeads(networks: Network[], timeoutMs = 3_000): Promise<Map<string, number>> {
  const heads = new Map<string, number>();
  await Promise.all(
    networks.map(async (net) => {
      const rpcUrl = net.rpcUrl;
      if (!rpcUrl) return;
      try {
        heads.set(`${net.mode}:${net.chain}`, await familyOps(net.chain).readHead({ ...net, rpcUrl }, timeoutMs));
      } catch {
        /* absent: rpc_up 0 */
      }
    }),
  );
  return heads;
}
