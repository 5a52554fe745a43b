import { isOffCurveAddress, type Address } from '@solana/kit';
import { SOLANA_SYSTEM_PROGRAM } from './address';
import { readSolanaAccount } from './read-account';
import type { SolanaRpc } from './rpc';

/**
 * Whether a payment's sender is a person's wallet ('none': an ed25519 key, no account or a plain system account) or a
 * program's ('contract': a program, an account a program owns, or a program-derived address with no key), where
 * money sent back may not reach the payer: the sender check of a send-back, as EVM reads contract code. The same
 * facts the destination rule refuses a program on. A failed read throws.
 */
export async function readSolanaSenderKind(rpc: SolanaRpc, address: Address): Promise<'none' | 'contract'> {
  const account = await readSolanaAccount(rpc, address);
  if (account?.executable) return 'contract';
  if (account && account.owner !== SOLANA_SYSTEM_PROGRAM) return 'contract';
  return isOffCurveAddress(address) ? 'contract' : 'none';
}
