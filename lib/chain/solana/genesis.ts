import { CHAIN_SPECS } from '@/lib/config/rails';
import { SOLANA_DEV } from '@/lib/config/solana/dev-network';

/**
 * The cluster a SOLANA network's chain id stands for, by the genesis hash its node must answer (`getGenesisHash`):
 * Solana has no chain id, so the hash of its first block is the network identity the rail check compares, as
 * EVM's and TRON's compare `eth_chainId`. Mainnet-beta's and devnet's are Solana's published ones (101 and 103:
 * CHAIN_SPECS.SOLANA.chainId); development's chain ids name the stand-in. Another chain id (a test's own) is
 * not checked.
 */
export const SOLANA_CLUSTERS: ReadonlyMap<number, { name: string; genesisHash: string }> = new Map([
  [CHAIN_SPECS.SOLANA.chainId.live, { name: 'mainnet-beta', genesisHash: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d' }],
  [CHAIN_SPECS.SOLANA.chainId.test, { name: 'devnet', genesisHash: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG' }],
  [102, { name: 'testnet', genesisHash: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3zQawwpjk2NsNY' }],
  [CHAIN_SPECS.SOLANA.devChainId.live, { name: 'the stand-in', genesisHash: SOLANA_DEV.genesisHash }],
  [CHAIN_SPECS.SOLANA.devChainId.test, { name: 'the stand-in', genesisHash: SOLANA_DEV.genesisHash }],
]);

/** The cluster whose genesis hash `hash` is (for the message), or undefined for one the table does not know. */
export const clusterOfGenesis = (hash: string) => [...SOLANA_CLUSTERS.values()].find((c) => c.genesisHash === hash)?.name;
