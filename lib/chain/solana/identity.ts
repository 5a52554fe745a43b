import { parseSolanaAddress, SolanaAddressError } from './address';

/** A Solana account's identity: its Base58 text, which is canonical (one spelling per key); null when `raw` is none. */
export function solanaIdentity(raw: string): string | null {
  try {
    return parseSolanaAddress(raw);
  } catch (err) {
    if (err instanceof SolanaAddressError) return null;
    throw err;
  }
}
