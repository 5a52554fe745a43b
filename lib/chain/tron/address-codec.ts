import type { TronStoredAddress, TronWireAddress } from '../common/address-brand';
import { checkByteLength, type AddressCodec } from '../common/address-codec';
import { parseTronAddress, toBase58, toEvm, toHex41 } from './address';

// The TRON brands are made here and nowhere else.
const wire = (bytes: string) => toBase58(bytes) as TronWireAddress;
const stored = (bytes: string) => toHex41(bytes) as TronStoredAddress;

/** TRON: `T…` is Base58Check of 0x41 + the 20 bytes; rows store `41…` hex (lib/chain/tron/address.ts). */
export const TRON_ADDRESS_CODEC: AddressCodec<'tron'> = {
  family: 'tron',
  byteLength: 20,
  // parseTronAddress checks the Base58Check checksum and refuses the `0x` form and the zero address.
  parse: (raw) => wire(parseTronAddress(raw)),
  // A row holds `41…` (invoices, requests) or `T…` (withdrawals); a bare `0x…` is another family's and is refused.
  parseStored: (raw) => {
    if (/^0x/i.test(raw.trim())) throw new Error(`"${raw.slice(0, 60)}" is an EVM address, not a TRON one`);
    return stored(raw.trim());
  },
  // toEvm checks the Base58Check checksum of a `T…` address.
  accountBytes: (w) => checkByteLength('tron', toEvm(w), 20),
  storedForm: (bytes) => stored(checkByteLength('tron', bytes, 20)),
  wireForm: (bytes) => wire(checkByteLength('tron', bytes, 20)),
};
