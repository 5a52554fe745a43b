import { getAddress } from 'viem';
import { CHAIN_SPECS, type ChainKey } from '@/lib/config/rails';
import { depositAddress } from './deposit-account';
import { toBase58 } from './tron/address';
import { tronDepositKey } from './tron/deposit-key';

/**
 * Deposit addresses by chain family. EVM networks share one branch (m/44'/60'/0'/0: index i is the same address on
 * each, which is what lets a payment on the wrong EVM network be held, not lost); TRON has its own (m/44'/195'/0'/0,
 * what TronLink and Ledger restore). Both draw indexes from one sequence, so an index is used on one branch only.
 */

/** The stored form of the deposit address at `index`: lower-case `0x…` (EVM) or `41…` hex (TRON). */
export function storedDepositAddress(chain: ChainKey, mnemonic: string, index: number): string {
  return CHAIN_SPECS[chain].family === 'tron' ? tronDepositKey(mnemonic, index).hex : depositAddress(mnemonic, index).toLowerCase();
}

/**
 * A stored address as the wire shows it: EIP-55 `0x…` for EVM, Base58Check `T…` for TRON. The stored forms never
 * overlap (`0x` prefix or not), so no chain is needed to tell them apart.
 */
export function formatAddress(stored: string): string {
  return isStoredTronAddress(stored) ? toBase58(stored) : getAddress(stored);
}

/** True for the stored TRON form (`41` + 40 hex digits, no 0x). */
export const isStoredTronAddress = (stored: string) => /^41[0-9a-f]{40}$/.test(stored);
