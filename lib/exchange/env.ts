import { z } from 'zod';

/** Exchange settings, spread into lib/env.ts's schema. */
export const EXCHANGE_ENV = {
  /** FixedFloat API base (https://ff.io) or the local simulator; with the key and secret it serves live mode (and test mode outside production). */
  EXCHANGE_URL: z.string().url().optional(),
  EXCHANGE_API_KEY: z.string().min(1).optional(),
  EXCHANGE_API_SECRET: z.string().min(1).optional(),
  /** Test mode's own exchange (the simulator); required for test-mode exchange calls in production. */
  TEST_EXCHANGE_URL: z.string().url().optional(),
  TEST_EXCHANGE_API_KEY: z.string().min(1).optional(),
  TEST_EXCHANGE_API_SECRET: z.string().min(1).optional(),
  /** The exchange's weight limit per API key and window (FixedFloat: 250 per 60 s). */
  EXCHANGE_WEIGHT_LIMIT: z.coerce.number().int().min(50).default(250),
  EXCHANGE_WEIGHT_WINDOW_SECONDS: z.coerce.number().positive().default(60),
  /** The order tracker only spends weight while the window holds at most this much, leaving room for creates. */
  EXCHANGE_TRACK_CEILING: z.coerce.number().int().min(1).default(150),
  /** How long POST /v1/withdrawals/exchange/withdrawal waits for the USDT transfer's confirmations before answering. */
  EXCHANGE_WITHDRAWAL_WAIT_SECONDS: z.coerce.number().min(0).max(60).default(20),
};
