import type { ChainFamily } from '@/lib/config/rails';
import type { StoredAddress, WireAddress } from './address-brand';

/**
 * How one chain family writes an account: every family here names an account by the same 20 bytes (TRON prefixes
 * 0x41 and Base58Check-encodes them; the same key holds the EVM and the TRON account), so comparing two addresses
 * of any family means comparing their bytes, never their spellings (lib/chain/address-codecs.ts). The codec is the
 * only maker of its family's branded addresses (common/address-brand.ts).
 */
export interface AddressCodec<F extends ChainFamily = ChainFamily> {
  family: F;
  /** A wire address of the family (either letter case on EVM) → its wire form; throws when it is none (bad checksum too). */
  parse(wire: string): WireAddress<F>;
  /** A stored or wire address of the family (a row's column) → the stored form; throws when it is none. */
  parseStored(stored: string): StoredAddress<F>;
  /** A wire address of the family (`0x…`, `T…`) → its 20 bytes as lower-case `0x…`; throws on a bad checksum. */
  accountBytes(wire: string): `0x${string}`;
  /** The 20 bytes → how the family's rows store an address (`invoices.deposit_address`). */
  storedForm(bytes: `0x${string}`): StoredAddress<F>;
  /** The 20 bytes → the family's wire form (EIP-55 `0x…`, `T…`). */
  wireForm(bytes: `0x${string}`): WireAddress<F>;
}
