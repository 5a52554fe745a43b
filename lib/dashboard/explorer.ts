/** Block explorers of the chains the gateway runs on; local chains (anvil) have none. */
const EXPLORERS: Record<number, string> = {
  56: 'https://bscscan.com',
  97: 'https://testnet.bscscan.com',
};

export function explorerTxUrl(chainId: number, txHash: string): string | null {
  const base = EXPLORERS[chainId];
  return base ? `${base}/tx/${txHash}` : null;
}
