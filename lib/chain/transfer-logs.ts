import { toHex, type PublicClient } from 'viem';
import { TRANSFER_TOPIC, type ScannedTransfer, type TokenTransfer } from './common/transfer';

export { TRANSFER_TOPIC, type ScannedTransfer, type TokenTransfer };

export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  blockTimestamp?: string;
  removed?: boolean;
}

/** Decodes a raw Transfer log by hand: the watcher decodes thousands per block, viem's generic decoder is slower. */
export function decodeTransfer(log: RpcLog): ScannedTransfer | null {
  if (log.topics.length !== 3 || log.topics[0] !== TRANSFER_TOPIC) return null;
  return {
    token: log.address.toLowerCase(),
    txHash: log.transactionHash,
    logIndex: Number(log.logIndex),
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash,
    blockTimestamp: log.blockTimestamp ? Number(log.blockTimestamp) : undefined,
    from: `0x${log.topics[1]!.slice(26)}`.toLowerCase(),
    to: `0x${log.topics[2]!.slice(26)}`.toLowerCase(),
    value: log.data === '0x' ? 0n : BigInt(log.data),
  };
}

/** A range's logs as transfers: logs a node reports `removed` and other events are left out. */
export function decodeTransfers(logs: RpcLog[]): ScannedTransfer[] {
  const out: ScannedTransfer[] = [];
  for (const log of logs) {
    if (log.removed) continue;
    const t = decodeTransfer(log);
    if (t) out.push(t);
  }
  return out;
}

/** One eth_getLogs for the network's token contracts and the Transfer topic only; recipients are matched in the database. */
export async function fetchTransferLogs(client: PublicClient, tokens: string[], from: number, to: number): Promise<RpcLog[]> {
  return (await client.request({
    method: 'eth_getLogs',
    params: [{ address: tokens as `0x${string}`[], topics: [TRANSFER_TOPIC], fromBlock: toHex(from), toBlock: toHex(to) }],
  })) as unknown as RpcLog[];
}

/** -32005 and the providers' "limit exceeded" / "more than N results" / range messages: retry with a smaller range. */
export function isRangeLimitError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    // `rpcCode`: the TRON adapter's TronNodeError (lib/chain/tron/node-client.ts).
    const { code, rpcCode, message, details } = e as { code?: number; rpcCode?: number; message?: string; details?: string };
    if (code === -32005 || rpcCode === -32005) return true;
    const text = `${message ?? ''} ${details ?? ''}`;
    if (/limit exceeded|more than \d+ results|block range|range (is )?too (large|wide)|too many (results|blocks)/i.test(text)) return true;
  }
  return false;
}
