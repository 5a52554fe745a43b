import { z } from 'zod';
import { solanaEnvAddressSchema, solanaPrivateKey } from './env-address';

/**
 * Solana's variables (docs/solana.md). Apart from the EVM and TRON networks' (lib/config/network-env.ts) because
 * its wallet keys are ed25519 seeds, not secp256k1. They configure the SOLANA network once RAILS enables a
 * SOLANA rail; outside production the stand-in's fixed mints and keys (dev-network.ts) fill what is unset.
 */
export const SOLANA_ENV: Record<string, z.ZodType> = Object.fromEntries(
  (['TEST', 'LIVE'] as const).flatMap((p) => [
    [`${p}_SOLANA_RPC_URL`, z.string().url().optional()],
    /** The USDC and USDT mints (Base58): mainnet's by default on mainnet, the stand-in's in development. */
    [`${p}_SOLANA_USDC_ADDRESS`, solanaEnvAddressSchema.optional()],
    [`${p}_SOLANA_USDT_ADDRESS`, solanaEnvAddressSchema.optional()],
    /** The fee payer of sweeps (and the rent of accounts it creates). */
    [`${p}_SOLANA_GAS_WALLET_PRIVATE_KEY`, solanaPrivateKey.optional()],
    [`${p}_SOLANA_HOT_WALLET_PRIVATE_KEY`, solanaPrivateKey.optional()],
    [`${p}_SOLANA_FEE_WALLET_ADDRESS`, solanaEnvAddressSchema.optional()],
    /** Test mode only: the wallet whose tokens the pay helper sends (the stand-in's funded faucet in development). */
    ...(p === 'TEST' ? [[`TEST_SOLANA_FAUCET_PRIVATE_KEY`, solanaPrivateKey.optional()] as const] : []),
  ]),
);
