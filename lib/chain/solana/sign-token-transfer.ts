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

/** A signed transaction ready to broadcast, and the block height after which it can no longer land. */
export interface SignedSolanaTransaction {
  signature: string;
  /** base64 wire bytes: stored before the first broadcast, re-sent as they are (same signature) until it lands or expires. */
  wire: string;
  lastValidBlockHeight: number;
}

/** What a token transfer of the gateway's (a sweep or a withdrawal) moves, from whom, to whom, and until when it may land. */
export interface TokenTransferPlan {
  mint: Address;
  decimals: number;
  /** The sending token account (the signer owns it). */
  source: Address;
  /** The receiving associated token account, and its owner. */
  destination: Address;
  destinationOwner: Address;
  /** The destination account does not exist yet: the fee payer creates it (and pays its rent) in the same transaction. */
  createDestination: boolean;
  amount: bigint;
  lifetime: { blockhash: string; lastValidBlockHeight: number };
}

/**
 * Signs [create the destination ATA when missing] + transferChecked (when `amount` > 0) + `after`, with `owner`
 * signing for the tokens and `feePayer` paying the fee and any new account's rent, so the token owner needs no SOL.
 */
export async function signTokenTransfer(
  plan: TokenTransferPlan,
  signers: { owner: TransactionSigner; feePayer: TransactionSigner },
  after: Instruction[],
): Promise<SignedSolanaTransaction> {
  const { owner, feePayer } = signers;
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
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        { blockhash: plan.lifetime.blockhash as never, lastValidBlockHeight: BigInt(plan.lifetime.lastValidBlockHeight) },
        m,
      ),
    (m) => appendTransactionMessageInstructions([...instructions, ...after], m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  return {
    signature: getSignatureFromTransaction(signed),
    wire: getBase64EncodedWireTransaction(signed),
    lastValidBlockHeight: plan.lifetime.lastValidBlockHeight,
  };
}
