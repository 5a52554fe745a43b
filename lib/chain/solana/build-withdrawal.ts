import type { Address, TransactionSigner } from '@solana/kit';
import type { SolanaWithdrawalPlan } from './plan-withdrawal';
import { signTokenTransfer, type SignedSolanaTransaction } from './sign-token-transfer';

/** SPL Memo v3, what wallets and explorers read (@solana-program/memo defaults to a newer address: docs/solana.md §1). */
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr' as Address;

/**
 * Signs a withdrawal: [create the destination's associated token account when missing, its rent paid by the fee
 * payer] + transferChecked from the hot wallet's token account + a memo naming the withdrawal. The memo is what
 * makes two withdrawals of the same amount to the same account under the same blockhash two transactions: without
 * it their bytes, and so their signatures, would be identical and the node would land only one of them.
 */
export async function buildSolanaWithdrawal(
  plan: SolanaWithdrawalPlan,
  memo: string,
  signers: { owner: TransactionSigner; feePayer: TransactionSigner },
): Promise<SignedSolanaTransaction> {
  // An SPL Memo instruction is the program and the text, no accounts (@solana-program/memo is a dev dependency only).
  return signTokenTransfer(plan, signers, [{ programAddress: MEMO_PROGRAM, data: new TextEncoder().encode(memo) }]);
}
