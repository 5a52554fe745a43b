import { getAddressEncoder, isAddress, type Address } from '@solana/kit';

/**
 * Solana addresses: a 32-byte public key (an ed25519 key or a program-derived address), Base58 on the wire, 32 to
 * 44 characters, case-sensitive. Stored form: the same Base58 text, which is canonical (one spelling per key), so
 * rows compare as strings; it never looks like an EVM `0x…` or TRON `41…` row, and a TRON `T…` address (25 bytes)
 * is refused by length.
 */
export class SolanaAddressError extends Error {
  constructor(
    readonly code: 'evm_address' | 'invalid_solana_address' | 'system_program',
    message: string,
  ) {
    super(message);
    this.name = 'SolanaAddressError';
  }
}

/** The all-zero key: the System Program's id, which no one holds a key for. */
export const SOLANA_SYSTEM_PROGRAM = '11111111111111111111111111111111';

/** Parses a Base58 Solana address (what users type) into its stored form; throws with the reason. */
export function parseSolanaAddress(raw: string): Address {
  const s = raw.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(s)) throw new SolanaAddressError('evm_address', 'this is an EVM (0x) address, not a Solana address');
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s))
    throw new SolanaAddressError('invalid_solana_address', 'not a Solana address: expected 32 to 44 Base58 characters');
  // isAddress decodes and requires exactly 32 bytes: a TRON `T…` (25 bytes) or a signature (64 bytes) fails here.
  if (!isAddress(s)) throw new SolanaAddressError('invalid_solana_address', 'not a Solana address: it does not decode to a 32-byte public key');
  if (s === SOLANA_SYSTEM_PROGRAM) throw new SolanaAddressError('system_program', 'the System Program address cannot receive funds');
  return s;
}

/** True when `raw` is a well-formed Solana address (the System Program's included). */
export function isSolanaAddress(raw: string): boolean {
  const s = raw.trim();
  return /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s) && isAddress(s);
}

/** The 32 bytes of an address as lower-case hex (what byte-wise comparisons and logs use). */
export function solanaAddressBytes(raw: string): string {
  return Buffer.from(getAddressEncoder().encode(parseSolanaAddress(raw))).toString('hex');
}
