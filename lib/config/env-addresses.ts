import type { z } from 'zod';
import { evmEnvAddress } from './evm/env-address';
import type { ChainFamily } from './rails';
import { solanaEnvAddressSchema } from './solana/env-address';
import { tronEnvAddressSchema } from './tron/env-address';

/**
 * How each family's contract and account addresses are written in configuration. lib/config is read before the
 * chain adapter and cannot import it, so the families' configuration syntax sits in lib/config/<family>/
 * (lib/chain/family-seam.test.ts counts these folders as family code); the adapter's codecs check users' input.
 */
export const ENV_ADDRESS: Record<ChainFamily, z.ZodType<`0x${string}`>> = {
  evm: evmEnvAddress,
  tron: tronEnvAddressSchema,
  solana: solanaEnvAddressSchema,
};
