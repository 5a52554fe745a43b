import { getAddress } from 'viem';
import { toBase58 } from './tron/address';
import { TRON_ADDRESS_RULE } from './tron/address-rule';

/**
 * An address as the wire shows it: EIP-55 `0x…` for EVM, Base58Check `T…` for TRON. Takes the stored forms
 * (invoices, refund requests, payments: lower-case `0x…`, `41…`) and the wire forms withdrawals keep (`T…`,
 * `0x…`). The forms never overlap, so no chain is needed to tell them apart.
 */
export function formatAddress(address: string): string {
  return isStoredTronAddress(address) || TRON_ADDRESS_RULE.pattern.test(address) ? toBase58(address) : getAddress(address);
}

/** True for the stored TRON form (`41` + 40 hex digits, no 0x). */
export const isStoredTronAddress = (stored: string) => /^41[0-9a-f]{40}$/.test(stored);
