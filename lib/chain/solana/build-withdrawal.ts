import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import type { SignedSolanaTransaction } from './build-sweep';
import type { SolanaWithdrawalPlan } from './plan-withdrawal';

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
  const { owner, feePayer } = signers;
  const instructions: Instruction[] = [];
  if (plan.createDestination)
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({ payer: feePayer, ata: plan.destination, owner: plan.destinationOwner, mint: plan.mint }),
    );
  instructions.push(
    getTransferCheckedInstruction({
      source: plan.source,
      mint: plan.mint,
      destination: plan.destination,
      authority: owner,
      amount: plan.amount,
      decimals: plan.decimals,
    }),
    // An SPL Memo instruction is the program and the text, no accounts (@solana-program/memo is a dev dependency only).
    { programAddress: MEMO_PROGRAM, data: new TextEncoder().encode(memo) },
  );
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: plan.lifetime.blockhash as never, lastValidBlockHeight: BigInt(plan.lifetime.lastValidBlockHeight) },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return {
    signature: getSignatureFromTransaction(signed),
    wire: getBase64EncodedWireTransaction(signed),
    lastValidBlockHeight: plan.lifetime.lastValidBlockHeight,
  };
}
