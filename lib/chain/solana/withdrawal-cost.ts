/**
 * What a token withdrawal can cost the gas wallet, in lamports (docs/solana.md §6.2): the destination's associated
 * token account's rent when the transfer must create it (165 bytes, rent-exempt at 2,039,280 lamports) and two
 * signatures at 5,000 (the gas wallet's as fee payer, the hot wallet's as the tokens' owner). No priority fee.
 */
export const ATA_RENT_LAMPORTS = 2_039_280n;
export const WITHDRAWAL_SIGNATURES_LAMPORTS = 10_000n;
/** The most one withdrawal costs: the reserve its network fee must cover before it is accepted. */
export const WITHDRAWAL_WORST_LAMPORTS = ATA_RENT_LAMPORTS + WITHDRAWAL_SIGNATURES_LAMPORTS;
