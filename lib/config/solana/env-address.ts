import { z } from 'zod';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * A Solana account or mint given in configuration (Base58 of a 32-byte key, or `0x` + 64 hex) as its 32 bytes in
 * `0x` form, or null when it is neither. Dependency-free (lib/config is read before lib/chain); the adapter's
 * parseSolanaAddress (lib/chain/solana/address.ts) is what checks addresses from users.
 */
export function solanaEnvAddress(raw: string): `0x${string}` | null {
  const s = raw.trim();
  if (/^0x[0-9a-fA-F]{64}$/.test(s)) return s.toLowerCase() as `0x${string}`;
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(s)) return null;
  let n = 0n;
  for (const c of s) n = n * 58n + BigInt(ALPHABET.indexOf(c));
  // Leading '1's are leading zero bytes in Base58.
  const zeros = s.length - s.replace(/^1+/, '').length;
  const body = n === 0n ? '' : n.toString(16).padStart(2 * Math.ceil(n.toString(16).length / 2), '0');
  const hex = '00'.repeat(zeros) + body;
  return hex.length === 64 ? `0x${hex}` : null;
}

/** A Solana mint or account in configuration: kept as its 32 bytes in `0x` form (the codec writes the Base58). */
export const solanaEnvAddressSchema = z
  .string()
  .trim()
  .refine((v) => solanaEnvAddress(v) !== null, 'must be a Solana address (Base58 of 32 bytes) or 0x-prefixed 32-byte hex')
  .transform((v) => solanaEnvAddress(v)!);

/** An ed25519 private key (its 32-byte seed) as `0x` + 64 hex: Solana's wallets, not secp256k1 keys. */
export const solanaPrivateKey = z.custom<`0x${string}`>(
  (v) => typeof v === 'string' && /^0x[0-9a-fA-F]{64}$/.test(v),
  'must be an ed25519 private key (its 32-byte seed) as 0x + 64 hex',
);
