import type { ChainFamily } from '@/lib/config/rails';

/**
 * How one chain family writes an account: every family here names an account by the same 20 bytes (TRON prefixes
 * 0x41 and Base58Check-encodes them; the same key holds the EVM and the TRON account), so comparing two addresses
 * of any family means comparing their bytes, never their spellings (lib/chain/address-codecs.ts).
 */
export interface AddressCodec {
  family: ChainFamily;
  /** A wire address of the family (`0x…`, `T…`) → its 20 bytes as lower-case `0x…`; throws on a bad checksum. */
  accountBytes(wire: string): `0x${string}`;
  /** The 20 bytes → how the family's rows store an address (`invoices.deposit_address`). */
  storedForm(bytes: `0x${string}`): string;
  /** The 20 bytes → the family's wire form (EIP-55 `0x…`, `T…`). */
  wireForm(bytes: `0x${string}`): string;
}
