import { SolanaRpcError, type SolanaRpc } from './rpc';
import type { SignedSolanaTransaction } from './build-sweep';

/**
 * Broadcasts stored wire bytes (with preflight). A node answering that the signature was already processed means
 * it landed: that is success, not an error to retry with a new transaction. Other refusals throw SolanaRpcError
 * with the node's `data.err` (e.g. "BlockhashNotFound"); the caller then judges the stored transaction, it does
 * not rebuild on the refusal alone.
 */
export async function broadcastSolanaTransaction(rpc: SolanaRpc, tx: Pick<SignedSolanaTransaction, 'signature' | 'wire'>): Promise<string> {
  try {
    const sig = await rpc.call('sendTransaction', [tx.wire, { encoding: 'base64' }]);
    if (sig !== tx.signature) throw new SolanaRpcError('sendTransaction', `the node answered ${sig} for ${tx.signature}`);
    return sig;
  } catch (e) {
    if (e instanceof SolanaRpcError && (e.data as { err?: unknown } | undefined)?.err === 'AlreadyProcessed') return tx.signature;
    throw e;
  }
}
