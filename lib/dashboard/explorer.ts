/** Block explorers of the chains the gateway runs on; local chains (anvil) have none. */
const EXPLORERS: Record<number, string> = {
  56: 'https://bscscan.com',
  97: 'https://testnet.bscscan.com',
  1: 'https://etherscan.io',
  11155111: 'https://sepolia.etherscan.io',
  137: 'https://polygonscan.com',
  80002: 'https://amoy.polygonscan.com',
  42161: 'https://arbiscan.io',
  421614: 'https://sepolia.arbiscan.io',
  8453: 'https://basescan.org',
  84532: 'https://sepolia.basescan.org',
};

export function explorerTxUrl(chainId: number, txHash: string): string | null {
  const base = EXPLORERS[chainId];
  return base ? `${base}/tx/${txHash}` : null;
}
