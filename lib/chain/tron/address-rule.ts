import type { AddressRule } from '../common/address-rule';

/** TRON: Base58Check of `0x41` + 20 bytes, always 34 characters starting with T (the checksum is the server's to check). */
export const TRON_ADDRESS_RULE: AddressRule = {
  family: 'tron',
  pattern: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  placeholder: 'T…',
  // The EVM example's 20 bytes as a TRON address.
  example: 'TNhWvctD24Ju9C8qpp9T9bQpGPPw5gjA96',
  name: 'TRON (T…)',
  shape: 'a TRON address: T followed by 33 Base58 characters',
  caseInsensitive: false,
  // A transaction id: the same 32 bytes of hex as EVM's hash, without `0x`.
  txId: { pattern: /^[0-9a-fA-F]{64}$/, caseInsensitive: true },
};
