import { createHash } from 'node:crypto';
import { z } from 'zod';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest();

/**
 * A TRON address given in configuration (`T…` Base58Check, or 20-byte `0x` hex) as its 20 bytes in `0x` form, or
 * null when it is neither. Dependency-free (lib/config is read before lib/chain and must not import it); the
 * adapter's parseTronAddress (lib/chain/tron/address.ts) is what checks addresses from users.
 */
export function tronEnvAddress(raw: string): `0x${string}` | null {
  const s = raw.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(s)) return s.toLowerCase() as `0x${string}`;
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(s)) return null;
  let n = 0n;
  for (const c of s) n = n * 58n + BigInt(ALPHABET.indexOf(c));
  const bytes = Buffer.from(n.toString(16).padStart(50, '0'), 'hex');
  if (bytes.length !== 25 || bytes[0] !== 0x41) return null;
  const body = bytes.subarray(0, 21);
  if (!sha256(sha256(body)).subarray(0, 4).equals(bytes.subarray(21))) return null;
  return `0x${body.subarray(1).toString('hex')}`;
}

/** A TRON contract or account in its Base58 `T…` form (or 20-byte hex): kept as its 20 bytes in `0x` form. */
export const tronEnvAddressSchema = z
  .string()
  .trim()
  .refine((v) => tronEnvAddress(v) !== null, 'must be a TRON address (T…, checksum valid) or 0x-prefixed 20-byte hex')
  .transform((v) => tronEnvAddress(v)!);
