import type { Address } from '@solana/kit';
import { tokenAccount } from './plan-sweep';
import type { SolanaRpc } from './rpc';

/**
 * The token units an SPL token account holds at a commitment: 0 when the account does not exist (never created, or
 * closed by a sweep); an account of another mint, or something that is not a token account, throws. So does any
 * failed read: never 0 for "could not tell".
 */
export async function readSolanaTokenBalance(
  rpc: SolanaRpc,
  account: Address,
  mint: Address,
  commitment: 'confirmed' | 'finalized' = 'finalized',
): Promise<{ units: bigint; slot: number }> {
  const { context, value } = await rpc.call('getAccountInfo', [account, { encoding: 'base64', commitment }]);
  if (value === null) return { units: 0n, slot: context.slot };
  const token = tokenAccount(value);
  if (!token || token.mint !== mint) throw new Error(`${account} is not a token account of ${mint}`);
  return { units: token.amount, slot: context.slot };
}
