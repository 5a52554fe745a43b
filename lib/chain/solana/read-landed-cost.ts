import { SolanaRpcError, type SolanaRpc } from './rpc';

/**
 * What a finalized transaction cost its fee payer (the first account key), in lamports: the fee and the rent of
 * any account it created, as the node's pre/post balances report them; and whether it failed (`err`, fee paid
 * all the same). A transaction not readable at `finalized` throws: the caller waits, never guesses.
 */
export async function readLandedCost(rpc: SolanaRpc, signature: string): Promise<{ lamports: bigint; err: unknown }> {
  const tx = await rpc.call('getTransaction', [signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }]);
  if (!tx?.meta) throw new SolanaRpcError('getTransaction', `${signature} is not readable at finalized`);
  const [pre, post] = [tx.meta.preBalances[0], tx.meta.postBalances[0]];
  if (pre === undefined || post === undefined) throw new SolanaRpcError('getTransaction', `${signature} has no fee payer balances`);
  return { lamports: BigInt(pre) - BigInt(post), err: tx.meta.err };
}
