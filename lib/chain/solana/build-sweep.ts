import type { TransactionSigner } from '@solana/kit';
import { getCloseAccountInstruction } from '@solana-program/token';
import type { SolanaSweepPlan } from './plan-sweep';
import { signTokenTransfer, type SignedSolanaTransaction } from './sign-token-transfer';

export type { SignedSolanaTransaction };

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
  const close = plan.close ? [getCloseAccountInstruction({ account: plan.source, destination: feePayer.address, owner })] : [];
  return signTokenTransfer(plan, signers, close);
}
