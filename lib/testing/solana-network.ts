import type { SolanaNode } from '@/devtools/solana-node/solana-node';
import { ADDRESS_CODECS } from '@/lib/chain/address-codecs';
import type { ReadyNetwork, SolanaNetwork } from '@/lib/chain/network';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { CHAIN_SPECS, type Asset } from '@/lib/config/rails';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';

/** A Solana test network with every wallet the gateway's jobs and helpers use. */
export type SolanaTestNetwork = ReadyNetwork<
  'rpcUrl' | 'tokenAddress' | 'depositMnemonic' | 'gasWalletKey' | 'hotWalletKey' | 'feeWallet' | 'faucetKey',
  SolanaNetwork
>;

/**
 * Test mode's SOLANA network on a stand-in node (what a test file passes to setNetworkOverride or calls the family
 * code with): the stand-in's fixed mints at 6 decimals, the development mnemonic, its gas, hot and faucet keys and
 * fee wallet, the rails table's confirmations. `assets` are the enabled tokens (the first is the network's own,
 * default USDC); `fields` replace any other (a file's own chain id keeps its lane apart from other files').
 */
export function solanaTestNetwork(
  node: SolanaNode,
  { assets = ['USDC'], ...fields }: { assets?: readonly Asset[] } & Partial<SolanaNetwork> = {},
): SolanaTestNetwork {
  const codec = ADDRESS_CODECS.solana;
  const tokens = assets.map((asset) => ({ asset, address: codec.parse(node.mints[asset as 'USDC' | 'USDT']), decimals: 6 }));
  const net: SolanaTestNetwork = {
    family: 'solana',
    mode: 'test',
    chain: 'SOLANA',
    token: tokens[0]!.asset,
    chainId: CHAIN_SPECS.SOLANA.devChainId.test,
    rpcUrl: node.url,
    tokenAddress: tokens[0]!.address,
    decimals: 6,
    confirmations: CHAIN_SPECS.SOLANA.confirmations,
    depositMnemonic: DEV_MNEMONIC,
    gasWalletKey: SOLANA_DEV.gasWalletKey,
    hotWalletKey: SOLANA_DEV.hotWalletKey,
    feeWallet: codec.wireForm(SOLANA_DEV.feeWallet),
    faucetKey: SOLANA_DEV.faucetKey,
    tokens,
  };
  return { ...net, ...fields } as SolanaTestNetwork;
}
