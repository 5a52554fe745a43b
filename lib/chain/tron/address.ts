import { utils } from 'tronweb';

/**
 * TRON addresses: byte 0x41 + the 20 bytes an EVM address would have, Base58Check-encoded (`T…`, 34
 * characters) on the wire. Stored form: lower-case `41…` hex (42 digits, no 0x), so a TRON row never
 * equals an EVM `0x…` row (docs/tron.md §2).
 */
export class TronAddressError extends Error {
  constructor(
    readonly code: 'evm_address' | 'invalid_tron_address' | 'zero_address',
    message: string,
  ) {
    super(message);
    this.name = 'TronAddressError';
  }
}

/** The zero address (`41` + 20 zero bytes), which no one controls. */
export const TRON_ZERO_ADDRESS = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';

/** Parses a Base58Check `T…` address (the only form accepted from users) into the stored `41…` hex form; throws with the reason. */
export function parseTronAddress(raw: string): string {
  const s = raw.trim();
  if (/^0x[0-9a-fA-F]{40}$/.test(s)) throw new TronAddressError('evm_address', 'this is an EVM (0x) address, not a TRON address: use the T… form');
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(s))
    throw new TronAddressError('invalid_tron_address', 'not a TRON address: expected 34 Base58 characters starting with T');
  const bytes = utils.crypto.decode58Check(s);
  // decode58Check checks the 4-byte checksum; the payload must be 0x41 + 20 bytes.
  if (!bytes || bytes.length !== 21 || bytes[0] !== 0x41) throw new TronAddressError('invalid_tron_address', 'not a TRON address: bad checksum');
  if (s === TRON_ZERO_ADDRESS) throw new TronAddressError('zero_address', 'the zero address cannot receive funds');
  return Buffer.from(bytes).toString('hex');
}

/** True when `raw` is a valid Base58Check TRON address (zero address included). */
export function isTronAddress(raw: string): boolean {
  try {
    parseTronAddress(raw);
    return true;
  } catch (e) {
    return e instanceof TronAddressError && e.code === 'zero_address';
  }
}

/** Stored `41…` hex (or `0x…` 20-byte EVM form) → Base58Check `T…`. */
export function toBase58(addr: string): string {
  const hex = toHex41(addr);
  return utils.crypto.getBase58CheckAddress(Array.from(Buffer.from(hex, 'hex')));
}

/** Any of `T…`, `41…` hex, `0x…` (20 bytes) → lower-case `41…` hex. */
export function toHex41(addr: string): string {
  if (addr.startsWith('T')) return parseAnyBase58(addr);
  const h = addr.replace(/^0x/, '').toLowerCase();
  if (/^41[0-9a-f]{40}$/.test(h)) return h;
  if (/^[0-9a-f]{40}$/.test(h)) return `41${h}`;
  throw new TronAddressError('invalid_tron_address', `not a TRON or 20-byte address: ${addr}`);
}

/** The EVM form (`0x` + 20 bytes, lower case) of a TRON address: what TVM logs and ABI words carry. */
export function toEvm(addr: string): `0x${string}` {
  return `0x${toHex41(addr).slice(2)}`;
}

function parseAnyBase58(s: string): string {
  const bytes = utils.crypto.decode58Check(s);
  if (!bytes || bytes.length !== 21 || bytes[0] !== 0x41) throw new TronAddressError('invalid_tron_address', `not a TRON address: ${s}`);
  return Buffer.from(bytes).toString('hex');
}
