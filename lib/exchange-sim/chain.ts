import { createPublicClient, createWalletClient, erc20Abi, formatUnits, http, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

export interface SimChainOptions {
  rpcUrl: string;
  tokenAddress: Address;
  /** The exchange's payout wallet: holds test USDT and BNB for gas. */
  walletKey: Hex;
  decimals?: number;
}

export interface Deposit {
  to: string;
  amount: string;
  txHash: string;
  blockNumber: bigint;
}

/**
 * The simulator's view of the local test chain: fresh deposit addresses,
 * Transfer logs to them, and USDT payouts from its wallet (one at a time, so
 * nonces never collide).
 */
export function createSimChain(opts: SimChainOptions) {
  const decimals = opts.decimals ?? 18;
  const chainIdPromise = createPublicClient({ transport: http(opts.rpcUrl) }).getChainId();
  const client = createPublicClient({ transport: http(opts.rpcUrl), cacheTime: 0 });
  const account = privateKeyToAccount(opts.walletKey);
  let lastBlock: bigint | null = null;
  let sendChain: Promise<unknown> = Promise.resolve();

  async function wallet() {
    const id = await chainIdPromise;
    const chain = {
      id,
      name: 'local',
      nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
      rpcUrls: { default: { http: [opts.rpcUrl] } },
    } as const;
    return createWalletClient({ chain, account, transport: http(opts.rpcUrl) });
  }

  return {
    address: account.address,
    newDepositAddress: () => privateKeyToAccount(generatePrivateKey()).address.toLowerCase(),
    head: () => client.getBlockNumber(),
    /** New USDT transfers to any of `watched` since the last scan. */
    async scan(watched: Set<string>): Promise<Deposit[]> {
      const head = await client.getBlockNumber();
      const from = lastBlock === null ? head : lastBlock + 1n;
      if (from > head) return [];
      const out: Deposit[] = [];
      for (let start = from; start <= head; start += 2000n) {
        const end = start + 1999n > head ? head : start + 1999n;
        const logs = await client.getContractEvents({
          address: opts.tokenAddress,
          abi: erc20Abi,
          eventName: 'Transfer',
          fromBlock: start,
          toBlock: end,
        });
        for (const l of logs) {
          const to = l.args.to!.toLowerCase();
          if (watched.has(to)) out.push({ to, amount: formatUnits(l.args.value!, decimals), txHash: l.transactionHash, blockNumber: l.blockNumber });
        }
      }
      lastBlock = head;
      return out;
    },
    /** Sends USDT; resolves with the hash once broadcast. */
    send(to: Address, amount: string): Promise<Hex> {
      const next = sendChain.then(async () => {
        const w = await wallet();
        return w.writeContract({
          address: opts.tokenAddress,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [to, parseUnits(amount, decimals)],
          chain: w.chain,
        });
      });
      sendChain = next.catch(() => {});
      return next;
    },
    async receipt(hash: Hex) {
      return client.getTransactionReceipt({ hash }).catch(() => null);
    },
  };
}
export type SimChain = ReturnType<typeof createSimChain>;
