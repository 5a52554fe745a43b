import type { AddressCodec } from '../common/address-codec';
import { toBase58, toEvm, toHex41 } from './address';

/** TRON: `T…` is Base58Check of 0x41 + the 20 bytes; rows store `41…` hex (lib/chain/tron/address.ts). */
export const TRON_ADDRESS_CODEC: AddressCodec = {
  family: 'tron',
  // toEvm checks the Base58Check checksum of a `T…` address.
  accountBytes: (wire) => toEvm(wire),
  storedForm: (bytes) => toHex41(bytes),
  wireForm: (bytes) => toBase58(bytes),
};
