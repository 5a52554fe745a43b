import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit';
import { getCloseAccountInstruction, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import type { SolanaSweepPlan } from './plan-sweep';

/** A signed transaction ready to broadcast, and the block height after which it can no longer land. */
export interface SignedSolanaTransaction {
  signature: string;
  /** base64 wire bytes: stored before the first broadcast, re-sent as they are (same signature) until it lands or expires. */
  wire: string;
  lastValidBlockHeight: number;
}

/**
 * Signs a sweep: [create the destination ATA when missing] + transferChecked of the finalized amount + [close the
 * emptied deposit token account, its rent to the fee payer]. The deposit owner signs the transfer and the close;
 * the fee payer (the gas wallet) pays the fee and any new account's rent, so deposit keys never hold SOL. One
 * transaction: if a payment arrives between the plan and the close, CloseAccount fails and nothing moves.
 */
export async function buildSolanaSweep(
  plan: SolanaSweepPlan,
  signers: { owner: TransactionSigner; feePayer: TransactionSigner },
): Promise<SignedSolanaTransaction> {
  const { owner, feePayer } = signers;
  if (owner.address === feePayer.address) throw new Error('the fee payer must not be the deposit owner: deposit keys hold no SOL');
  const instructions: Instruction[] = [];
  if (plan.createDestination)
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({ payer: feePayer, ata: plan.destination, owner: plan.destinationOwner, mint: plan.mint }),
    );
  if (plan.amount > 0n)
    instructions.push(
      getTransferCheckedInstruction({
        source: plan.source,
        mint: plan.mint,
        destination: plan.destination,
        authority: owner,
        amount: plan.amount,
        decimals: plan.decimals,
      }),
    );
  if (plan.close) instructions.push(getCloseAccountInstruction({ account: plan.source, destination: feePayer.address, owner }));
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
