import { createPublicClient, http, type PublicClient } from 'viem';

const cache = new Map<string, PublicClient>();

/**
 * One public client per RPC URL. cacheTime 0: the watcher and confirmations
 * must see the real head, not viem's cached block number. The watcher does
 * its own retries with range shrinking, so the transport retries only once.
 */
export function publicClient(rpcUrl: string): PublicClient {
  let client = cache.get(rpcUrl);
  if (!client) {
    client = createPublicClient({
      transport: http(rpcUrl, { retryCount: 1, retryDelay: 100, timeout: 15_000 }),
      cacheTime: 0,
      pollingInterval: 100,
    });
    cache.set(rpcUrl, client);
  }
  return client;
}
