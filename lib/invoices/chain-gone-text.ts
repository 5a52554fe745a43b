/** What the dashboard, the checkout and the console say of an invoice whose local chain is gone (chain-gone.ts). */
export const CHAIN_GONE_TEXT = 'From an earlier run of the local chains: not watched';
