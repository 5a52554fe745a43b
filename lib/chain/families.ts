import { familyOf, type ChainFamily, type ChainKey } from '@/lib/config/rails';
import { EVM_FAMILY } from './evm-family';
import type { FamilyOps } from './family-ops';
import { SOLANA_FAMILY } from './solana-family';
import { TRON_FAMILY } from './tron-family';

export type { FamilyOps };

/**
 * The chain adapter's one dispatch table from family to implementation (issue 43 §2): `familyOps(chain)`.
 * Server only. Adding a family: docs/architecture.md, "Chain families: the seam".
 */
export const FAMILIES: { [F in ChainFamily]: FamilyOps<F> } = { evm: EVM_FAMILY, tron: TRON_FAMILY, solana: SOLANA_FAMILY };

/** The family implementation of a network. */
export const familyOps = (chain: ChainKey): FamilyOps => FAMILIES[familyOf(chain)];
