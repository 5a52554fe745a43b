import type { ChainFamily } from '@/lib/config/rails';
import { evmIdentity } from './evm/identity';
import { solanaIdentity } from './solana/identity';
import { tronIdentity } from './tron/identity';

/**
 * Each family's account identity (screening lists compare in it): EVM's 20 bytes lower-case `0x…`, one entry for every
 * EVM network; TRON's `41…` hex; Solana's Base58 key. null: `raw` is not an address of that family.
 */
export const IDENTITIES: Record<ChainFamily, (raw: string) => string | null> = { evm: evmIdentity, tron: tronIdentity, solana: solanaIdentity };
