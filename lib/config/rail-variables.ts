import type { Asset, ChainKey } from './rails';

type ModeName = 'test' | 'live';
const prefix = (mode: ModeName) => (mode === 'live' ? 'LIVE' : 'TEST');

/**
 * The environment variable that sets a network's value in a mode: BSC's are the mode's own
 * (`TEST_CHAIN_ID`), the others carry the network (`TEST_ETHEREUM_CHAIN_ID`). Messages name these.
 */
export function networkVariable(
  mode: ModeName,
  chain: ChainKey,
  name: 'RPC_URL' | 'CHAIN_ID' | 'GAS_WALLET_PRIVATE_KEY' | 'HOT_WALLET_PRIVATE_KEY',
): string {
  return chain === 'BSC' ? `${prefix(mode)}_${name}` : `${prefix(mode)}_${chain}_${name}`;
}

/**
 * The variable that sets a token's contract, decimals or expected symbol: BSC USDT is the mode's token
 * (`TEST_TOKEN_ADDRESS`, `TEST_TOKEN_DECIMALS`, `TEST_TOKEN_SYMBOL`), every other `<MODE>_<CHAIN>_<TOKEN>_…`.
 * Only BSC USDT's decimals are a setting; another token's come from the rails table, so a token whose
 * decimals differ has the wrong contract: its address variable is named.
 */
export function tokenVariable(mode: ModeName, chain: ChainKey, asset: Asset, name: 'ADDRESS' | 'DECIMALS' | 'SYMBOL'): string {
  if (chain === 'BSC' && asset === 'USDT') return `${prefix(mode)}_TOKEN_${name}`;
  return `${prefix(mode)}_${chain}_${asset}_${name === 'DECIMALS' ? 'ADDRESS' : name}`;
}
