import { SolanaRpcError, type SolanaRpc } from './rpc';
import type { SignedSolanaTransaction } from './build-sweep';

/**
 * Where a signed transaction stands. `landed`: the node has it (failed ones too: their fee is paid; `err` says).
 * `pending`: no status yet and its blockhash may still be accepted, so it may still land: re-send the same stored
 * bytes (same signature, it cannot land twice), never a new transaction. `safely_expired`: no status, and the
 * finalized block height is past its lastValidBlockHeight, so no block that could include it is still to come:
 * only now may a new transaction (new blockhash, new signature) replace it. The same rule as TRON's expiration.
 */
export type SolanaSentState =
  | { state: 'landed'; slot: number; err: unknown; confirmationStatus: 'processed' | 'confirmed' | 'finalized' | null }
  | { state: 'pending'; finalizedBlockHeight: number }
  | { state: 'safely_expired'; finalizedBlockHeight: number };

/**
 * Judges a stored transaction. The finalized block height is read BEFORE the status: a status read first could
 * miss a transaction landing in between and call it expired. Read failures throw (never "expired").
 */
export async function judgeSentTransaction(
  rpc: SolanaRpc,
  tx: Pick<SignedSolanaTransaction, 'signature' | 'lastValidBlockHeight'>,
): Promise<SolanaSentState> {
  const finalizedBlockHeight = await rpc.call('getBlockHeight', [{ commitment: 'finalized' }]);
  const statuses = await rpc.call('getSignatureStatuses', [[tx.signature], { searchTransactionHistory: true }]);
  if (statuses.value.length !== 1) throw new SolanaRpcError('getSignatureStatuses', `asked for 1 status, got ${statuses.value.length}`);
  const status = statuses.value[0];
  if (status) return { state: 'landed', slot: status.slot, err: status.err, confirmationStatus: status.confirmationStatus };
  return finalizedBlockHeight > tx.lastValidBlockHeight
    ? { state: 'safely_expired', finalizedBlockHeight }
    : { state: 'pending', finalizedBlockHeight };
}
