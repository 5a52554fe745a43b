import type { Network } from './network';
import { tronNodeClient, type TronNodeClient } from './tron/node-client';

const clients = new Map<string, TronNodeClient>();

/**
 * The TRON node client of a network (its `rpcUrl` is the HTTP API base, JSON-RPC at `/jsonrpc`), one per URL and
 * timeout. Every failed or timed-out read throws TronNodeError (lib/chain/tron/node-client.ts).
 */
export function tronClientOf(net: Pick<Network, 'rpcUrl' | 'chain'>, timeoutMs = 10_000): TronNodeClient {
  if (!net.rpcUrl) throw new Error(`the ${net.chain} network has no RPC URL`);
  const key = `${net.rpcUrl}|${timeoutMs}`;
  let client = clients.get(key);
  if (!client) clients.set(key, (client = tronNodeClient({ url: net.rpcUrl, timeoutMs })));
  return client;
}
