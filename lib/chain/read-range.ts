import { toHex, type PublicClient } from 'viem';
import { blockAt } from './check-reorg';
import type { Cursor } from './cursor';
import { resultOf, rpcBatch, RpcReadError } from './rpc-batch';
import { fetchTransferLogs, TRANSFER_TOPIC, type RpcLog } from './transfer-logs';

/**
 * A scan range's Transfer logs and its last block, read from one node. A node
 * behind `to` answers eth_getLogs for the blocks it has and nothing for the
 * rest, without an error; taking that as complete would skip payments. So,
 * given the RPC URL, the head, the last block and the logs go in one batch
 * (one node answers it) and a node whose head is below `to` is an error. A
 * caller-supplied client (tests) is read call by call.
 */
export async function readRange(
  src: { rpcUrl?: string; client: PublicClient },
  tokens: string[],
  from: number,
  to: number,
): Promise<{ toBlock: Cursor; logs: RpcLog[] }> {
  if (!src.rpcUrl) {
    const toBlock = await blockAt(src.client, to);
    return { toBlock, logs: await fetchTransferLogs(src.client, tokens, from, to) };
  }
  const [head, block, logs] = await rpcBatch(src.rpcUrl, [
    { method: 'eth_blockNumber', params: [] },
    { method: 'eth_getBlockByNumber', params: [toHex(to), false] },
    { method: 'eth_getLogs', params: [{ address: tokens, topics: [TRANSFER_TOPIC], fromBlock: toHex(from), toBlock: toHex(to) }] },
  ]);
  const nodeHead = Number(resultOf(head!, 'eth_blockNumber'));
  if (!(nodeHead >= to)) throw new RpcReadError(`the node is behind: head ${nodeHead}, range ends at ${to}`);
  const b = resultOf(block!, 'eth_getBlockByNumber') as { hash?: string; timestamp?: string } | null;
  if (!b?.hash || !b.timestamp) throw new RpcReadError(`the node has no block ${to}`);
  // Keep the node's code and message: the watcher halves the range on its limit errors.
  if (!logs!.ok) throw Object.assign(new RpcReadError(logs!.message), { code: logs!.code });
  return { toBlock: { lastBlock: to, lastBlockHash: b.hash, lastBlockTime: new Date(Number(b.timestamp) * 1000) }, logs: logs!.result as RpcLog[] };
}
