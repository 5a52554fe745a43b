import type { RailId } from '@/lib/config/rails';

/**
 * The rails `npm run dev` enables (scripts/dev.ts; RAILS, when set, decides instead): BSC, Ethereum and Polygon
 * with both stablecoins, USDT on TRON, and USDC and USDT on Solana. The rail matrix (lib/testing/rail-matrix, e2e/rail-matrix.spec.ts) runs
 * its rows for each, and the e2e stack enables the same: a rail added here gets its rows, and one whose family
 * has no matrix chain fails lib/testing/rail-matrix/matrix-coverage.test.ts.
 */
export const DEV_RAILS: readonly RailId[] = [
  'BSC:USDT',
  'BSC:USDC',
  'ETHEREUM:USDT',
  'ETHEREUM:USDC',
  'POLYGON:USDT',
  'POLYGON:USDC',
  'TRON:USDT',
  'SOLANA:USDC',
  'SOLANA:USDT',
];

/** DEV_ALL_RAILS=1 adds Arbitrum and Base (the vitest matrix covers these too). */
export const ALL_DEV_RAILS: readonly RailId[] = [...DEV_RAILS, 'ARBITRUM:USDT', 'ARBITRUM:USDC', 'BASE:USDC'];
