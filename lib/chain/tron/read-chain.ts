import { TRANSFER_TOPIC, type TokenTransfer } from '../common/transfer';
import { toEvm } from './address';
import { TronNodeError, type TronNodeClient } from './node-client';
import { parseRpcBlock, parseTransferLog, type TronBlockRef } from './parse';

/** TRON's solidification: 19 of the 27 super representatives (2/3 + 1) have built on a block (~57 s). */
export const TRON_SOLIDIFY_CONFIRMATIONS = 19;

const hex = (n: number) => `0x${n.toString(16)}`;

export interface TronHeads {
  head: TronBlockRef;
  /** The node's solidified (irreversible) block: JSON-RPC `finalized`. */
  solid: TronBlockRef;
  /** Highest block that is both solidified and `confirmations` below the head: what may be confirmed. */
  confirmed: number;
}

/** Head and solidified block from one node (one JSON-RPC batch). */
export async function readTronHeads(client: TronNodeClient, confirmations = TRON_SOLIDIFY_CONFIRMATIONS): Promise<TronHeads> {
  const [latest, finalized] = await client.jsonRpc([
    { method: 'eth_getBlockByNumber', params: ['latest', false] },
    { method: 'eth_getBlockByNumber', params: ['finalized', false] },
  ]);
  const head = parseRpcBlock(latest);
  const solid = parseRpcBlock(finalized);
  if (solid.number > head.number) throw new TronNodeError('/jsonrpc', `solidified block ${solid.number} above the head ${head.number}`);
  return { head, solid, confirmed: Math.min(solid.number, head.number - confirmations) };
}

/** Block `n` (id, parent, time); a node that does not have it throws. */
export async function readTronBlock(client: TronNodeClient, n: number): Promise<TronBlockRef> {
  const [block] = await client.jsonRpc([{ method: 'eth_getBlockByNumber', params: [hex(n), false] }]);
  if (block === null) throw new TronNodeError('/jsonrpc eth_getBlockByNumber', `the node has no block ${n}`);
  return parseRpcBlock(block);
}

/**
 * TRC-20 Transfer logs of `tokens` in blocks [from, to] plus block `to` itself, in one JSON-RPC
 * batch (one node, one chain). Logs must belong to the range, and those of block `to` to the block
 * read, or the read throws (a load balancer mixing nodes). Ranges above java-tron's `maxBlockRange`
 * (5000) throw a range-limit error (`isRangeLimitError`).
 */
export async function readTrc20Transfers(
  client: TronNodeClient,
  q: { tokens: string[]; from: number; to: number },
): Promise<{ toBlock: TronBlockRef; transfers: (TokenTransfer & { token: string })[] }> {
  if (q.from > q.to) throw new Error(`empty range ${q.from}..${q.to}`);
  const [logs, block] = await client.jsonRpc([
    { method: 'eth_getLogs', params: [{ address: q.tokens.map(toEvm), topics: [TRANSFER_TOPIC], fromBlock: hex(q.from), toBlock: hex(q.to) }] },
    { method: 'eth_getBlockByNumber', params: [hex(q.to), false] },
  ]);
  if (block === null) throw new TronNodeError('/jsonrpc eth_getBlockByNumber', `the node has no block ${q.to}`);
  const toBlock = parseRpcBlock(block);
  if (!Array.isArray(logs)) throw new TronNodeError('/jsonrpc eth_getLogs', 'answer is not a list');
  const transfers = logs.map(parseTransferLog).filter((t) => t !== null);
  for (const t of transfers) {
    if (t.blockNumber < q.from || t.blockNumber > q.to)
      throw new TronNodeError('/jsonrpc eth_getLogs', `log of block ${t.blockNumber} outside ${q.from}..${q.to}`);
    if (t.blockNumber === q.to && t.blockHash !== toBlock.id)
      throw new TronNodeError('/jsonrpc eth_getLogs', `log of block ${q.to} from another chain (${t.blockHash})`);
  }
  transfers.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  return { toBlock, transfers };
}
