import { getAddress } from 'viem';
import { toBase58, toHex41 } from './tron/address';
import { SOLANA_ADDRESS_RULE } from './solana/address-rule';
import { TRON_ADDRESS_RULE } from './tron/address-rule';

/**
 * An address as the wire shows it: EIP-55 `0x…` for EVM, Base58Check `T…` for TRON, Solana's Base58 as stored.
 * Takes the stored forms (invoices, refund requests, payments: lower-case `0x…`, `41…`, Base58) and the wire forms
 * withdrawals keep (`T…`, `0x…`). The forms never overlap, so no chain is needed to tell them apart.
 */
export function formatAddress(address: string): string {
  // Solana's Base58 is case-sensitive and its own canonical spelling: never lower-cased or checksummed.
  if (SOLANA_ADDRESS_RULE.pattern.test(address)) return address;
  return isStoredTronAddress(address) || TRON_ADDRESS_RULE.pattern.test(address) ? toBase58(address) : getAddress(address);
}

/**
 * The stored form of a wire address (what invoices, refund requests and payments hold): lower-case `0x…`, or `41…`
 * for a TRON `T…`; the inverse of formatAddress, for looking a pasted address up.
 */
export function storedAddress(wire: string): string {
  if (SOLANA_ADDRESS_RULE.pattern.test(wire)) return wire;
  return TRON_ADDRESS_RULE.pattern.test(wire) ? toHex41(wire) : wire.toLowerCase();
}

/** True for the stored TRON form (`41` + 40 hex digits, no 0x). */
export const isStoredTronAddress = (stored: string) => /^41[0-9a-f]{40}$/.test(stored);
