import { encodeFunctionData, erc20Abi, formatUnits, type Address } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { tokensOf, type EvmNetwork } from '@/lib/chain/network';
import { resultOf, rpcBatch, RpcReadError, type RpcCall } from '@/lib/chain/rpc-batch';

/** What one network's chain shows at one block. Amounts are decimal strings at each token's decimals. */
export interface ChainHoldings {
  blockNumber: number;
  /** The hot wallet in the network's wire form (EIP-55, or `T…` on TRON). */
  hot: string;
  /** token → hot wallet balance. */
  hotBalances: Map<string, string>;
  /** `${token}:${address}` → balance of that deposit address. */
  depositBalances: Map<string, string>;
  /** The gas wallet in its wire form (EIP-55, or Base58 on Solana) and its coin. */
  gas: { address: string; balance: string } | null;
  /** TRON's energy wallet instead of a gas wallet: its TRX and the sweeps its stake can pay (lib/solvency/read-tron.ts). */
  energy?: { address: string; trx: string; sweeps: number } | null;
  /** Transactions mined successfully at or before blockNumber (lowercase hashes). */
  mined: Set<string>;
}

const BATCH = 200;
const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * Reads one network at one block: the head first, then every balance at exactly that block (the hot
 * wallet's tokens, the listed deposit addresses, the gas wallet's coin) and the receipts of the
 * transactions `loadHashes` returns. It is called once the block is chosen: a transaction mined by that
 * block was recorded (signed bytes stored before broadcast) before it, so none is missed. Any failed, malformed or timed-out read throws (RpcReadError): the caller records an
 * error, never a zero.
 */
export async function readChainHoldings(
  net: EvmNetwork,
  deposits: Map<string, Set<string>>,
  loadHashes: () => Promise<string[]>,
  opts: { timeoutMs?: number } = {},
): Promise<ChainHoldings> {
  if (!net.rpcUrl || !net.hotWalletKey) throw new RpcReadError(`${net.mode} ${net.chain}: no RPC URL or hot wallet configured`);
  const rpcUrl = net.rpcUrl;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const [head] = await rpcBatch(rpcUrl, [{ method: 'eth_blockNumber', params: [] }], { timeoutMs });
  const blockNumber = Number(BigInt(resultOf(head!, 'eth_blockNumber') as string));
  const at = hex(blockNumber);
  const hashes = await loadHashes();
  const hot = privateKeyToAddress(net.hotWalletKey);
  const gasAddress = net.gasWalletKey ? privateKeyToAddress(net.gasWalletKey) : null;

  type Read = { call: RpcCall; apply: (result: unknown) => void };
  const reads: Read[] = [];
  const hotBalances = new Map<string, string>();
  const depositBalances = new Map<string, string>();
  const mined = new Set<string>();
  let gas: ChainHoldings['gas'] = null;
  const balanceOf = (token: Address, owner: string, decimals: number, put: (v: string) => void): Read => ({
    call: {
      method: 'eth_call',
      params: [{ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [EVM_ADDRESS_CODEC.parse(owner)] }) }, at],
    },
    apply: (r) => put(formatUnits(hexToBigint(r, 'balanceOf'), decimals)),
  });
  for (const t of tokensOf(net)) {
    reads.push(balanceOf(t.address, hot, t.decimals, (v) => hotBalances.set(t.asset, v)));
    for (const address of deposits.get(`${net.chainId}:${t.asset}`) ?? []) {
      reads.push(balanceOf(t.address, address, t.decimals, (v) => depositBalances.set(`${t.asset}:${address}`, v)));
    }
  }
  if (gasAddress) {
    reads.push({
      call: { method: 'eth_getBalance', params: [gasAddress, at] },
      apply: (r) => (gas = { address: gasAddress, balance: formatUnits(hexToBigint(r, 'eth_getBalance'), 18) }),
    });
  }
  for (const hash of new Set(hashes.map((h) => h.toLowerCase()))) {
    reads.push({
      call: { method: 'eth_getTransactionReceipt', params: [hash] },
      apply: (r) => {
        // null: not mined on this node (which answered for the block above, so it has seen it).
        if (r === null) return;
        const receipt = r as { blockNumber?: string; status?: string };
        if (typeof receipt.blockNumber !== 'string') throw new RpcReadError('eth_getTransactionReceipt: malformed receipt');
        if (receipt.status === '0x1' && Number(BigInt(receipt.blockNumber)) <= blockNumber) mined.add(hash);
      },
    });
  }
  for (let i = 0; i < reads.length; i += BATCH) {
    const chunk = reads.slice(i, i + BATCH);
    const outcomes = await rpcBatch(
      rpcUrl,
      chunk.map((r) => r.call),
      { timeoutMs },
    );
    chunk.forEach((r, j) => r.apply(resultOf(outcomes[j]!, r.call.method)));
  }
  return { blockNumber, hot, hotBalances, depositBalances, gas, mined };
}

function hexToBigint(v: unknown, what: string): bigint {
  // A contract that is not there answers 0x: that is not a balance of zero.
  if (typeof v !== 'string' || !/^0x[0-9a-fA-F]+$/.test(v)) throw new RpcReadError(`${what}: malformed answer`);
  return BigInt(v);
}
