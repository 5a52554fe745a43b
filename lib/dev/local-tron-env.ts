import type { TronNode } from '@/devtools/tron-node/tron-node';

/** The stand-in's keys as the gateway's settings take them (0x-prefixed 32-byte hex). */
const key = (k: { privateKey: string }) => `0x${k.privateKey}`;

/**
 * The variables that point a mode at a local TRON stand-in (devtools/tron-node), named as docs/rails.md documents
 * them: its HTTP API base URL (JSON-RPC under /jsonrpc), its chain id (`eth_chainId`, the genesis id's last
 * 4 bytes), its USDT, the energy (`gas`) and custody (`hot`) wallets. Test mode also gets the stand-in's `other`
 * account as the TRON faucet of "Simulate payment": the mode's EVM faucet holds no TRX or USDT there, and the
 * caller mints that account its USDT. Deposit addresses and the fee wallet come from the mode's mnemonic and
 * fee wallet (the same keys on every network).
 */
export function localTronEnv(mode: 'test' | 'live', node: Pick<TronNode, 'url' | 'usdt' | 'keys'>, chainId: number): Record<string, string> {
  const p = mode === 'test' ? 'TEST' : 'LIVE';
  return {
    [`${p}_TRON_RPC_URL`]: node.url,
    [`${p}_TRON_CHAIN_ID`]: String(chainId),
    [`${p}_TRON_START_BLOCK`]: '0',
    [`${p}_TRON_USDT_ADDRESS`]: node.usdt,
    [`${p}_TRON_GAS_WALLET_PRIVATE_KEY`]: key(node.keys.gas),
    [`${p}_TRON_HOT_WALLET_PRIVATE_KEY`]: key(node.keys.hot),
    ...(mode === 'test' ? { TEST_TRON_FAUCET_PRIVATE_KEY: key(node.keys.other) } : {}),
  };
}
