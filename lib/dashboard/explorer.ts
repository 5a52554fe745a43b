/** How one explorer links a transaction and an address. */
interface Explorer {
  tx: (hash: string) => string;
  address: (address: string) => string;
}

/** Etherscan-style explorers (`/tx/<hash>`, `/address/<0x…>`). */
const scan = (base: string): Explorer => ({ tx: (h) => `${base}/tx/${h}`, address: (a) => `${base}/address/${a}` });

/**
 * Tronscan: a hash-routed page (`#/transaction/<id>`, `#/address/<T…>`). TRON transaction ids are 64 hex digits
 * without `0x` (JSON-RPC answers add one: stripped here).
 */
const tronscan = (base: string): Explorer => ({
  tx: (h) => `${base}/#/transaction/${h.replace(/^0x/, '')}`,
  address: (a) => `${base}/#/address/${a}`,
});

/** Block explorers of the chains the gateway runs on; local chains (anvil, the TRON stand-in) have none. */
const EXPLORERS: Record<number, Explorer> = {
  56: scan('https://bscscan.com'),
  97: scan('https://testnet.bscscan.com'),
  1: scan('https://etherscan.io'),
  11155111: scan('https://sepolia.etherscan.io'),
  137: scan('https://polygonscan.com'),
  80002: scan('https://amoy.polygonscan.com'),
  42161: scan('https://arbiscan.io'),
  421614: scan('https://sepolia.arbiscan.io'),
  8453: scan('https://basescan.org'),
  84532: scan('https://sepolia.basescan.org'),
  728126428: tronscan('https://tronscan.org'),
  3448148188: tronscan('https://nile.tronscan.org'),
};

export function explorerTxUrl(chainId: number, txHash: string): string | null {
  return EXPLORERS[chainId]?.tx(txHash) ?? null;
}

/** An address's page, in the network's wire form (`0x…` or `T…`). */
export function explorerAddressUrl(chainId: number, address: string): string | null {
  return EXPLORERS[chainId]?.address(address) ?? null;
}
