import { RpcReadError } from './rpc-batch';

/** viem's errors for a call that got no answer, or an answer that says nothing about the chain's state. */
const NO_ANSWER = new Set([
  'RpcReadError',
  'HttpRequestError',
  'TimeoutError',
  'WebSocketRequestError',
  'SocketClosedError',
  'BlockNotFoundError',
  'TransactionReceiptNotFoundError',
  'TransactionNotFoundError',
  'InternalRpcError',
  'LimitExceededRpcError',
  'ResourceUnavailableRpcError',
  'UnknownRpcError',
  // TRON's node client: a failed, timed-out or malformed read (lib/chain/tron/node-client.ts).
  'TronNodeError',
]);

/**
 * True when an error means "the chain could not be read" (transport failure,
 * timeout, HTTP 5xx/429, a node without the block) rather than an answer such
 * as a revert. Such a failure is retried later and never escalated to a final
 * state. Walks the cause chain: viem wraps transport errors.
 */
export function isChainUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof RpcReadError) return true;
    const name = (e as { name?: string }).name;
    if (name && NO_ANSWER.has(name)) return true;
    if (name === 'TypeError' && /fetch failed/i.test(String((e as Error).message))) return true;
  }
  return false;
}
