import type { AccountBytes, AddressFamily, ByteLength, StoredAddress, WireAddress } from './address-brand';

/**
 * How one chain family writes an account. EVM and TRON name an account by the same 20 bytes (TRON prefixes 0x41 and
 * Base58Check-encodes them; the same key holds the EVM and the TRON account); Solana by a 32-byte public key. So
 * comparing two addresses means comparing their bytes, never their spellings (lib/chain/address-codecs.ts), and the
 * byte length is the family's (`byteLength`, typed per family: 32 bytes never reach a 20-byte codec). The codec is
 * the only maker of its family's branded addresses (common/address-brand.ts).
 */
export interface AddressCodec<F extends AddressFamily = AddressFamily> {
  family: F;
  /** How many bytes name an account of the family: what `accountBytes` returns and `storedForm`/`wireForm` take. */
  byteLength: ByteLength<F>;
  /** A wire address of the family (either letter case on EVM) → its wire form; throws when it is none (bad checksum too). */
  parse(wire: string): WireAddress<F>;
  /** A stored or wire address of the family (a row's column) → the stored form; throws when it is none. */
  parseStored(stored: string): StoredAddress<F>;
  /** A wire address of the family (`0x…`, `T…`, Base58) → its bytes as lower-case `0x…`; throws on a bad checksum. */
  accountBytes(wire: string): AccountBytes<ByteLength<F>>;
  /** The family's bytes → how the family's rows store an address (`invoices.deposit_address`); throws on another length. */
  storedForm(bytes: AccountBytes<ByteLength<F>>): StoredAddress<F>;
  /** The family's bytes → the family's wire form (EIP-55 `0x…`, `T…`, Base58); throws on another length. */
  wireForm(bytes: AccountBytes<ByteLength<F>>): WireAddress<F>;
}

/** The bytes' length (`0x` + 2 hex digits a byte); throws unless it is the family's. */
export function checkByteLength<N extends number>(family: AddressFamily, bytes: string, length: N): AccountBytes<N> {
  if (!/^0x[0-9a-fA-F]*$/.test(bytes) || bytes.length !== 2 + 2 * length)
    throw new Error(`${family} addresses are ${length} bytes; "${bytes.slice(0, 80)}" is not`);
  return bytes.toLowerCase() as AccountBytes<N>;
}
