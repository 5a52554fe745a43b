import { z } from 'zod';
import { CHAINS, type ChainKey } from '@/lib/config/rails';

/**
 * What moving money costs on a network, in the network's stablecoins (USDT and USDC count 1:1), as the
 * operator prices it. Each is a setting per mode and network (`<MODE>_<CHAIN>_<NAME>`); docs/rails.md
 * gives the reasoning behind each default.
 */
export interface NetworkCosts {
  /** The smallest withdrawal (and refund) the network pays out. */
  minWithdrawal: string;
  /** Flat fee on every withdrawal, added to the percentage fee: the gas of the transfer. */
  networkFee: string;
  /** From this much on a deposit address is swept at the gateway's cost (its invoice fee pays the gas). */
  sweepMinimum: string;
  /**
   * The price of sweeping an address that holds less than the sweep minimum, taken from what it moves (the
   * merchant's money pays for collecting it). An address holding no more than this is not swept, and what it
   * holds is not credited (docs/withdrawals.md, "Credited once swept").
   */
  sweepFee: string;
  /** USD per unit of the gas coin: the console's comparison of gas spent with fees earned, and the gas-drain bench. */
  gasCoinUsd: string;
}

/**
 * Defaults that cover each network's typical gas. An ERC-20 transfer is about 50–65k gas; a sweep is a
 * gas top-up (21k) and two transfers, about 150k. BSC keeps the spec's terms (0.01 minimum, percentage fee
 * only: a transfer costs well under a cent at 0.1 gwei); Ethereum's fee covers 65k gas up to about 15 gwei
 * at 3,000 USD per ETH, and its sweep minimum a sweep up to about 55 gwei; Polygon, Arbitrum and Base
 * transfers cost cents or less, priced with a margin for their spikes. A sweep below the minimum is one
 * transfer (everything to the hot wallet) after the top-up, about 86k gas: the sweep fee covers it at the
 * same gas prices as the network fee (Ethereum: 86k × 15 gwei × 3,000 USD = 3.87).
 */
export const NETWORK_COST_DEFAULTS: Record<ChainKey, NetworkCosts> = {
  BSC: { minWithdrawal: '0.01', networkFee: '0.00', sweepMinimum: '1.00', sweepFee: '0.01', gasCoinUsd: '600' },
  ETHEREUM: { minWithdrawal: '5.00', networkFee: '3.00', sweepMinimum: '25.00', sweepFee: '4.00', gasCoinUsd: '3000' },
  POLYGON: { minWithdrawal: '0.10', networkFee: '0.02', sweepMinimum: '1.00', sweepFee: '0.03', gasCoinUsd: '0.25' },
  ARBITRUM: { minWithdrawal: '1.00', networkFee: '0.10', sweepMinimum: '2.00', sweepFee: '0.20', gasCoinUsd: '3000' },
  BASE: { minWithdrawal: '1.00', networkFee: '0.10', sweepMinimum: '2.00', sweepFee: '0.20', gasCoinUsd: '3000' },
  // The hot wallet burns TRX for each withdrawal's energy (it stakes none): 6.4 TRX to an address holding USDT,
  // 12.4 to one that never did, plus 0.35 of bandwidth (docs/tron.md §4/§5). The fee covers the second at
  // 0.27 USD/TRX (13.3 TRX ≈ 3.60) with a margin for TRX's price; the payer of the withdrawal pays it, never the
  // gateway. A sweep on delegated energy costs the deposit's activation (1.1 TRX) and bandwidth; the sweep fee
  // covers one that burns TRX instead (6.9 TRX, 1.86 USD) with a margin.
  TRON: { minWithdrawal: '5.00', networkFee: '4.00', sweepMinimum: '5.00', sweepFee: '2.00', gasCoinUsd: '0.27' },
  // Solana (docs/solana.md §5): a withdrawal to a wallet without a token account pays its rent, 2,039,280 lamports
  // (0.31 USD at 150 USD/SOL), plus 5,000 lamports a signature: the fee covers it with a margin. A sweep costs
  // 10,000 lamports and closing the deposit account returns more rent than that to the gas wallet.
  SOLANA: { minWithdrawal: '0.50', networkFee: '0.40', sweepMinimum: '0.10', sweepFee: '0.01', gasCoinUsd: '150' },
};

const cents = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, 'must be an amount with at most two decimals, such as 3.00');
const price = z
  .string()
  .trim()
  .regex(/^\d{1,12}(\.\d{1,8})?$/, 'must be a decimal number such as 3000');
const minimum = cents.refine((v) => Number(v) >= 0.01, 'must be at least 0.01');

const NAMES = {
  minWithdrawal: 'MIN_WITHDRAWAL',
  networkFee: 'NETWORK_FEE',
  sweepMinimum: 'SWEEP_MINIMUM',
  sweepFee: 'SWEEP_FEE',
  gasCoinUsd: 'GAS_COIN_USD',
} as const;

/** `<MODE>_<CHAIN>_MIN_WITHDRAWAL`, `_NETWORK_FEE`, `_SWEEP_MINIMUM`, `_SWEEP_FEE`, `_GAS_COIN_USD` for every network, BSC included; unset: the default. */
export const NETWORK_COST_ENV: Record<string, z.ZodType> = Object.fromEntries(
  (['TEST', 'LIVE'] as const).flatMap((p) =>
    CHAINS.flatMap((c) => [
      [`${p}_${c}_${NAMES.minWithdrawal}`, minimum.optional()],
      [`${p}_${c}_${NAMES.networkFee}`, cents.optional()],
      [`${p}_${c}_${NAMES.sweepMinimum}`, cents.optional()],
      [`${p}_${c}_${NAMES.sweepFee}`, minimum.optional()],
      [`${p}_${c}_${NAMES.gasCoinUsd}`, price.optional()],
    ]),
  ),
);

/**
 * A network's costs in a mode from the parsed environment: each variable, else the default. BSC's sweep
 * minimum also reads the older `<MODE>_SWEEP_MINIMUM_USDT` (default 1.00), which it had alone before.
 */
export function networkCostsFromEnv(e: Record<string, unknown>, mode: 'live' | 'test', chain: ChainKey): NetworkCosts {
  const p = mode === 'live' ? 'LIVE' : 'TEST';
  const d = NETWORK_COST_DEFAULTS[chain];
  const read = (k: keyof NetworkCosts, fallback: string) => (e[`${p}_${chain}_${NAMES[k]}`] as string | undefined) ?? fallback;
  const legacySweep = chain === 'BSC' ? (e[`${p}_SWEEP_MINIMUM_USDT`] as string | undefined) : undefined;
  return {
    minWithdrawal: read('minWithdrawal', d.minWithdrawal),
    networkFee: read('networkFee', d.networkFee),
    sweepMinimum: read('sweepMinimum', legacySweep ?? d.sweepMinimum),
    sweepFee: read('sweepFee', d.sweepFee),
    gasCoinUsd: read('gasCoinUsd', d.gasCoinUsd),
  };
}
