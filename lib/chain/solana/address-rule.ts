import type { AddressRule } from '../common/address-rule';

/**
 * Solana: Base58 of a 32-byte key, no checksum (the server decodes it to 32 bytes). A key whose first byte is not zero
 * is 43 or 44 characters; each leading zero byte is a leading `1`, so a shorter one starts with `1`. That is what
 * keeps a TRON `T…` (34 characters) from having this form too.
 */
export const SOLANA_ADDRESS_RULE: AddressRule = {
  family: 'solana',
  pattern: /^(?:[1-9A-HJ-NP-Za-km-z]{43,44}|1[1-9A-HJ-NP-Za-km-z]{31,42})$/,
  placeholder: 'Base58…',
  // The Associated Token Account program's id: a well-formed key that is nobody's wallet.
  example: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  name: 'Solana (Base58)',
  shape: 'a Solana address: 43 or 44 Base58 characters (fewer only after leading 1s)',
  caseInsensitive: false,
  // A transaction id is its first signature: Base58 of 64 bytes, 86 to 88 characters, case-sensitive.
  txId: { pattern: /^[1-9A-HJ-NP-Za-km-z]{86,88}$/, caseInsensitive: false },
};
