import type { StandInChain, TronBlock } from './chain';
import { hex, rpcBlockView } from './views';

/**
 * java-tron's Ethereum-compatible JSON-RPC (`/jsonrpc`) as far as a watcher needs it: chain id,
 * heads (`latest`, `finalized` = solidified), blocks and `eth_getLogs` with java-tron's limits and
 * error messages (documentation-en docs/api/json-rpc). Batches are answered in order (maxBatchSize 100).
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const MAX_BLOCK_RANGE = 5000;
const MAX_BATCH = 100;

type Req = { id?: unknown; method?: string; params?: unknown[] };

export async function handleJsonRpc(chain: StandInChain, body: unknown): Promise<unknown> {
  if (Array.isArray(body)) {
    if (body.length > MAX_BATCH)
      return { jsonrpc: '2.0', id: null, error: { code: -32005, message: `Batch size ${body.length} exceeds the limit ${MAX_BATCH}` } };
    return Promise.all(body.map((r) => one(chain, r as Req)));
  }
  return one(chain, body as Req);
}

async function one(chain: StandInChain, req: Req) {
  try {
    return { jsonrpc: '2.0', id: req.id ?? null, result: await call(chain, req.method ?? '', req.params ?? []) };
  } catch (e) {
    const code = e instanceof JsonRpcError ? e.code : -32000;
    return { jsonrpc: '2.0', id: req.id ?? null, error: { code, message: e instanceof Error ? e.message : String(e) } };
  }
}

function blockByTag(chain: StandInChain, tag: unknown): TronBlock | undefined {
  if (tag === 'latest') return chain.head;
  if (tag === 'finalized') return chain.solid;
  if (tag === 'earliest') return chain.blocks[0];
  if (tag === 'pending' || tag === 'safe') throw new JsonRpcError(-32602, `TAG ${tag} not supported`);
  if (typeof tag !== 'string' || !/^0x[0-9a-fA-F]+$/.test(tag)) throw new JsonRpcError(-32602, 'invalid block number');
  return chain.blocks[Number(tag)];
}

async function call(chain: StandInChain, method: string, params: unknown[]): Promise<unknown> {
  switch (method) {
    case 'eth_chainId':
      // TRON's chain id is the last 4 bytes of the genesis block id.
      return `0x${BigInt(`0x${chain.blocks[0]!.id.slice(-8)}`).toString(16)}`;
    case 'eth_blockNumber':
      return hex(chain.head.number);
    case 'eth_getBlockByNumber': {
      const b = blockByTag(chain, params[0]);
      return b ? rpcBlockView(b) : null;
    }
    case 'eth_getBlockByHash': {
      const id = String(params[0] ?? '')
        .replace(/^0x/, '')
        .toLowerCase();
      const b = chain.blocks[parseInt(id.slice(0, 16), 16)];
      return b && b.id === id ? rpcBlockView(b) : null;
    }
    case 'eth_getLogs':
      return getLogs(chain, (params[0] ?? {}) as Record<string, unknown>);
    default:
      throw new JsonRpcError(-32601, `the method ${method} does not exist/is not available`);
  }
}

async function getLogs(chain: StandInChain, f: Record<string, unknown>) {
  const num = (tag: unknown) => (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag) ? Number(tag) : blockByTag(chain, tag)!.number);
  const fromN = num(f.fromBlock ?? 'latest');
  const toN = num(f.toBlock ?? 'latest');
  if (fromN > toN) throw new JsonRpcError(-32602, 'please verify: fromBlock <= toBlock');
  if (toN - fromN >= MAX_BLOCK_RANGE) throw new JsonRpcError(-32602, `exceed max block range: ${MAX_BLOCK_RANGE}`);
  // Blocks past the head have no logs yet.
  const from = chain.blocks[fromN];
  const to = chain.blocks[Math.min(toN, chain.head.number)];
  if (!from || !to) return [];
  const evmFilter = { fromBlock: hex(from.number), toBlock: hex(to.number), address: f.address, topics: f.topics };
  const logs = await chain.rpc<{ address: string; topics: string[]; data: string; blockNumber: string; transactionHash: string; logIndex: string }[]>(
    'eth_getLogs',
    [evmFilter],
  );
  const byEvm = new Map<string, string>();
  for (let n = from.number; n <= to.number; n++) for (const id of chain.blocks[n]!.txIds) byEvm.set(chain.txs.get(id)!.evmHash ?? '', id);
  return logs.map((l) => {
    const b = chain.blocks[Number(l.blockNumber)]!;
    const txId = byEvm.get(l.transactionHash);
    if (!txId) throw new Error(`stand-in: log of ${l.transactionHash} is not a TRON transaction`);
    return {
      address: l.address.toLowerCase(),
      blockHash: `0x${b.id}`,
      blockNumber: hex(b.number),
      blockTimestamp: hex(Math.floor(b.timestamp / 1000)),
      transactionHash: `0x${txId}`,
      transactionIndex: hex(b.txIds.indexOf(txId)),
      logIndex: l.logIndex,
      removed: false,
      topics: l.topics,
      data: l.data,
    };
  });
}
