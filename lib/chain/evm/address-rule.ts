import type { AddressRule } from '../common/address-rule';

/** EVM networks: `0x` + the 20 bytes in hex (EIP-55 mixed case when checksummed), the same on every EVM network. */
export const EVM_ADDRESS_RULE: AddressRule = {
  family: 'evm',
  pattern: /^0x[0-9a-fA-F]{40}$/,
  placeholder: '0x…',
  example: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
  name: 'EVM (0x…)',
  shape: '0x followed by 40 hex characters',
  caseInsensitive: true,
  // A transaction hash: `0x` + 32 bytes in hex.
  txId: { pattern: /^0x[0-9a-fA-F]{64}$/, caseInsensitive: true },
};
