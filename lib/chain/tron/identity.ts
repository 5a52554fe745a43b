import { parseTronAddress, TronAddressError } from './address';

/**
 * A TRON account's identity: the stored `41…` hex form, from a checksummed `T…` address or from `41…` hex; null when
 * `raw` is neither. Never the `0x` form: those 20 bytes on an EVM network are another account.
 */
export function tronIdentity(raw: string): string | null {
  const s = raw.trim();
  if (/^41[0-9a-fA-F]{40}$/.test(s)) return s.toLowerCase();
  try {
    return parseTronAddress(s);
  } catch (err) {
    if (err instanceof TronAddressError) return null;
    throw err;
  }
}
