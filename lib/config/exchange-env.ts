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
  /** Most weight one tenant may hold in a window (less while several tenants spend: see docs/exchange.md, Fair shares). */
  EXCHANGE_TENANT_WEIGHT_SHARE: z.coerce.number().int().min(51).default(150),
  /** Weight per window kept for system work (the order tracker): tenants together never take the last of it. */
  EXCHANGE_SYSTEM_RESERVE: z.coerce.number().int().min(0).default(25),
  /** Identical price quotes within this many seconds are answered from a per-process cache at no weight (0: off). */
  EXCHANGE_QUOTE_CACHE_SECONDS: z.coerce.number().min(0).max(30).default(3),
  /**
   * Fiat rates for fiat-priced invoices (GET, JSON `{ source, rates: { EUR: "1.08", ... } }` in USDT per unit).
   * Unset: the mode's exchange URL + /rates/fiat, which only the local simulator serves (FixedFloat has no fiat rates).
   */
  FIAT_RATES_URL: z.string().url().optional(),
  /** A second, independent fiat rate source: a rate is then used only when both answer it and agree within the band (their mean). */
  FIAT_RATES_SECOND_URL: z.string().url().optional(),
  /** A fetched rate more than this many percent from the last good one (or, with two sources, from the other source's) is not used. */
  FIAT_RATE_MAX_MOVE_PERCENT: z.coerce.number().min(0.1).max(50).default(5),
  /** A cached fiat rate is used for new invoices while it is at most this old (the source being down); past it, 503 rate_unavailable. */
  FIAT_RATE_MAX_AGE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  /** A fiat rate younger than this is used without asking the source again (per process). */
  FIAT_RATE_REFRESH_SECONDS: z.coerce.number().int().min(0).max(3_600).default(60),
  /** How long POST /v1/withdrawals/exchange/withdrawal waits for the USDT transfer's confirmations before answering. */
  EXCHANGE_WITHDRAWAL_WAIT_SECONDS: z.coerce.number().min(0).max(60).default(20),
};
