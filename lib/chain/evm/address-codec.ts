import { getAddress } from 'viem';
import type { EvmAddress, StoredAddress } from '../common/address-brand';
import { checkByteLength, type AddressCodec } from '../common/address-codec';

// The EVM brands are made here and nowhere else.
const wire = (raw: string) => getAddress(raw) as EvmAddress;
const stored = (raw: string) => getAddress(raw).toLowerCase() as StoredAddress<'evm'>;

/** EVM: the wire form is the 20 bytes in hex (EIP-55 when checksummed); rows store them lower-case. */
export const EVM_ADDRESS_CODEC: AddressCodec<'evm'> = {
  family: 'evm',
  byteLength: 20,
  parse: wire,
  parseStored: stored,
  accountBytes: (w) => checkByteLength('evm', stored(w), 20),
  storedForm: (bytes) => stored(checkByteLength('evm', bytes, 20)),
  wireForm: (bytes) => wire(checkByteLength('evm', bytes, 20)),
};
