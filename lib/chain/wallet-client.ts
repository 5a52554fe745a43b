import { createWalletClient, http, type Hex, type WalletClient, type Account, type Chain, type Transport } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const cache = new Map<string, WalletClient<Transport, Chain, Account>>();

/** A signing client for a configured wallet key on a network (keys stay in memory, never logged). */
export function walletClient(rpcUrl: string, chainId: number, key: Hex): WalletClient<Transport, Chain, Account> {
  const account = privateKeyToAccount(key);
  const cacheKey = `${rpcUrl}|${chainId}|${account.address}`;
  let client = cache.get(cacheKey);
  if (!client) {
    const chain = {
      id: chainId,
      name: `chain-${chainId}`,
      nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    } as const;
    client = createWalletClient({ chain, account, transport: http(rpcUrl, { retryCount: 1 }), cacheTime: 0, pollingInterval: 100 });
    cache.set(cacheKey, client);
  }
  return client;
}
