import { createPublicClient, createWalletClient, erc20Abi, formatUnits, http, parseUnits, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

export interface SimChainOptions {
  rpcUrl: string;
  tokenAddress: Address;
  /** The exchange's payout wallet: holds the token and the chain's gas coin. */
  walletKey: Hex;
  /** The token's decimals (default 18, as USDT on BSC). */
  decimals?: number;
}

/** Where one wallet's sends on one node queue up: rails sharing both (USDT and USDC of a chain) must share it. */
export interface SendQueue {
  tail: Promise<unknown>;
}

export interface Deposit {
  to: string;
  amount: string;
  txHash: string;
  blockNumber: bigint;
}

/**
 * The simulator's view of one rail (a token on a local chain): fresh deposit
 * addresses, Transfer logs to them, and payouts from its wallet (one at a
 * time per `queue`, so nonces never collide).
 */
export function createSimChain(opts: SimChainOptions, queue: SendQueue = { tail: Promise.resolve() }) {
  const decimals = opts.decimals ?? 18;
  const chainIdPromise = createPublicClient({ transport: http(opts.rpcUrl) }).getChainId();
  const client = createPublicClient({ transport: http(opts.rpcUrl), cacheTime: 0 });
  const account = privateKeyToAccount(opts.walletKey);
  let lastBlock: bigint | null = null;

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
    /** New token transfers to any of `watched` since the last scan. */
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
    /** Sends the token; resolves with the hash once broadcast. */
    send(to: Address, amount: string): Promise<Hex> {
      const next = queue.tail.then(async () => {
        const w = await wallet();
        return w.writeContract({
          address: opts.tokenAddress,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [to, parseUnits(amount, decimals)],
          chain: w.chain,
        });
      });
      queue.tail = next.catch(() => {});
      return next;
    },
    async receipt(hash: Hex) {
      return client.getTransactionReceipt({ hash }).catch(() => null);
    },
  };
}
export type SimChain = ReturnType<typeof createSimChain>;
