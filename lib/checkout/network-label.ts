import { CHAIN_SPECS, type ChainKey } from '@/lib/config/rails';

/** The network as payers' wallets name it, with its token standard: "BNB Smart Chain (BEP-20)", "Ethereum (ERC-20)". */
export function networkLabel(chain: ChainKey): string {
  return chain === 'BSC' ? 'BNB Smart Chain (BEP-20)' : `${CHAIN_SPECS[chain]?.name ?? chain} (ERC-20)`;
}

/** "USDC (ERC-20) on Ethereum": the token with its standard and the network, as the link page states it. */
export function railLabel(chain: ChainKey, token: string): string {
  const standard = chain === 'BSC' ? 'BEP-20' : 'ERC-20';
  const name = chain === 'BSC' ? 'BNB Smart Chain' : (CHAIN_SPECS[chain]?.name ?? chain);
  return `${token} (${standard}) on ${name}`;
}
