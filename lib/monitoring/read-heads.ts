import type { Network } from '@/lib/chain/network';
import { resultOf, rpcBatch } from '@/lib/chain/rpc-batch';
import { tronClientOf } from '@/lib/chain/tron-network-client';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { familyOf } from '@/lib/config/rails';

/** A network's head block through its family's API (TRON: its JSON-RPC head, read by the TRON client). */
async function readHead(net: Network & { rpcUrl: string }, timeoutMs: number): Promise<number> {
  if (familyOf(net.chain) === 'tron') return (await readTronHeads(tronClientOf(net, timeoutMs), net.confirmations)).head.number;
  const [o] = await rpcBatch(net.rpcUrl, [{ method: 'eth_blockNumber', params: [] }], { timeoutMs });
  return Number(BigInt(resultOf(o!, 'eth_blockNumber') as string));
}

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
        heads.set(`${net.mode}:${net.chain}`, await readHead({ ...net, rpcUrl }, timeoutMs));
      } catch {
        /* absent: rpc_up 0 */
      }
    }),
  );
  return heads;
}
