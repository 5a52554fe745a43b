import { getAddress } from 'viem';
import type { AddressCodec } from '../common/address-codec';

/** EVM: the wire form is the 20 bytes in hex (EIP-55 when checksummed); rows store them lower-case. */
export const EVM_ADDRESS_CODEC: AddressCodec = {
  family: 'evm',
  accountBytes: (wire) => getAddress(wire).toLowerCase() as `0x${string}`,
  storedForm: (bytes) => bytes.toLowerCase(),
  wireForm: (bytes) => getAddress(bytes),
};
