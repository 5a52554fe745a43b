import { CHAIN_SPECS, isChainKey, type ChainKey } from '@/lib/config/rails';

/** The network as payers' wallets name it, with its token standard: "BNB Smart Chain (BEP-20)", "Ethereum (ERC-20)". */
export function networkLabel(chain: ChainKey): string {
  const spec = CHAIN_SPECS[chain];
  return `${spec.name} (${spec.tokenStandard})`;
}

/** "USDC (ERC-20) on Ethereum": the token with its standard and the network, as the link page states it. */
export function railLabel(chain: ChainKey, token: string): string {
  const spec = CHAIN_SPECS[chain];
  return `${token} (${spec.tokenStandard}) on ${spec.name}`;
}

/** A network named by a string that may not be a wire name (a backlog row of a network no longer configured: "chain 97"). */
export function anyNetworkLabel(chain: string): string {
  return isChainKey(chain) ? networkLabel(chain) : chain;
}
