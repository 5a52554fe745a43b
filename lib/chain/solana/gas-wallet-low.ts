/**
 * The gas wallet's low-funds floor in SOL (console and solvency): a sweep costs it 10,000 lamports and returns more in
 * rent than that, a withdrawal to a wallet without a token account 2,039,280 lamports of rent, so 0.1 SOL is ~50 of
 * those (docs/solana.md §5).
 */
export const SOLANA_GAS_WALLET_LOW_SOL = '0.1';
