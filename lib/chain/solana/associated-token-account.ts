import type { Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS, findAssociatedTokenPda } from '@solana-program/token';

/**
 * The owner's associated token account for a mint under the classic SPL Token program (USDC and USDT are not
 * Token-2022 mints): the program-derived address [owner, token program, mint] of the Associated Token Account
 * program, which wallets and exchanges pay to when given the owner's address.
 */
export async function associatedTokenAccount(owner: Address, mint: Address): Promise<Address> {
  const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return ata;
}
