import { z } from 'zod';

/** Unset or empty: the adapter is off. */
const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/**
 * The optional screening adapters (issue 46 §1, lib/screening/adapters): off unless configured, so a production
 * server screens with the offline SDN snapshot alone by default. Spread into lib/env.ts's schema; the cross-field
 * rules (HTTPS in production, a URL for a key) are in lib/screening/adapters/adapter-config.ts.
 */
export const SCREENING_ENV = {
  /** Chainalysis's sanctions API key (https://public.chainalysis.com, `X-API-Key`): set, every screening also asks it. */
  SCREENING_CHAINALYSIS_API_KEY: optional,
  /** Where that API is (its origin; tests point it at a local stub). */
  SCREENING_CHAINALYSIS_URL: z.string().url().default('https://public.chainalysis.com'),
  /** A paid scoring service: POST {family, address} → {score 0–100}; set, every screening also asks it. */
  SCREENING_SCORE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Sent as `Authorization: Bearer …` to SCREENING_SCORE_URL when set. */
  SCREENING_SCORE_API_KEY: optional,
  /** A score at or above this stops the address like a listed one. */
  SCREENING_SCORE_THRESHOLD: z.coerce.number().min(0).max(100).default(75),
  /**
   * Chainalysis's sanctions oracle contract (`isSanctioned(address)`, one address on Ethereum, BSC, Polygon, Arbitrum,
   * Base and others): set, every EVM address is also read there, through the live networks' RPC.
   */
  SCREENING_ORACLE_ADDRESS: optional,
  /** Which EVM networks to read the oracle on, comma-separated (e.g. `ETHEREUM,BSC`); unset: every live EVM network with an RPC. */
  SCREENING_ORACLE_CHAINS: optional,
  /** How long one adapter read may take; past it the read failed (never "clean"). */
  SCREENING_ADAPTER_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(3000),
};
