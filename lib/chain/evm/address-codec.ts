import { getAddress } from 'viem';
import type { EvmAddress, StoredAddress } from '../common/address-brand';
import type { AddressCodec } from '../common/address-codec';

// The EVM brands are made here and nowhere else.
const wire = (raw: string) => getAddress(raw) as EvmAddress;
const stored = (raw: string) => getAddress(raw).toLowerCase() as StoredAddress<'evm'>;

/** EVM: the wire form is the 20 bytes in hex (EIP-55 when checksummed); rows store them lower-case. */
export const EVM_ADDRESS_CODEC: AddressCodec<'evm'> = {
  family: 'evm',
  parse: wire,
  parseStored: stored,
  accountBytes: (w) => stored(w),
  storedForm: (bytes) => stored(bytes),
  wireForm: (bytes) => wire(bytes),
};
