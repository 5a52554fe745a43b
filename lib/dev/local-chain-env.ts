import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { UNPREFIXED_RAIL, type ChainKey } from '@/lib/config/rails';
import type { PlannedAnvil } from '@/lib/testing/anvil';

/**
 * The variables that point a mode at its local chains, named exactly as docs/rails.md documents them:
 * `npm run dev` (scripts/dev.ts) sets these, and lib/invoices/rails-from-env.test.ts configures every rail
 * with this same function, so the names it reads are the names the stack sets.
 */
export function localChainEnv(mode: 'test' | 'live', chains: { key: ChainKey; chain: PlannedAnvil }[]): Record<string, string> {
  const p = mode === 'test' ? 'TEST' : 'LIVE';
  const out: Record<string, string> = {};
  for (const { key, chain } of chains) {
    out[`${p}_${key}_DISPERSE_ADDRESS`] = chain.disperse;
    out[`${p}_${key}_COLLECTOR_ADDRESS`] = chain.collector;
    out[`${p}_${key}_COLLECTOR_ADMIN_PRIVATE_KEY`] = chain.keys.collectorAdmin;
    if (key === UNPREFIXED_RAIL.chain) {
      Object.assign(out, {
        [`${p}_RPC_URL`]: chain.rpcUrl,
        [`${p}_CHAIN_ID`]: String(chain.chainId),
        [`${p}_TOKEN_ADDRESS`]: chain.tokenOf(UNPREFIXED_RAIL.token),
        [`${p}_START_BLOCK`]: '0',
        [`${p}_DEPOSIT_MNEMONIC`]: DEV_MNEMONIC,
        [`${p}_GAS_WALLET_PRIVATE_KEY`]: chain.keys.gas,
        [`${p}_FEE_WALLET_ADDRESS`]: chain.addresses.fee,
        [`${p}_HOT_WALLET_PRIVATE_KEY`]: chain.keys.hot,
        ...(mode === 'test' ? { TEST_FAUCET_PRIVATE_KEY: chain.keys.faucet } : {}),
      });
      for (const t of chain.tokens) if (t.asset !== UNPREFIXED_RAIL.token) out[`${p}_${key}_${t.asset}_ADDRESS`] = t.address;
    } else {
      // Same dev wallets on every local chain (startAnvil funds them), so the BSC wallet settings serve here too.
      Object.assign(out, {
        [`${p}_${key}_RPC_URL`]: chain.rpcUrl,
        [`${p}_${key}_CHAIN_ID`]: String(chain.chainId),
        [`${p}_${key}_START_BLOCK`]: '0',
      });
      for (const t of chain.tokens) out[`${p}_${key}_${t.asset}_ADDRESS`] = t.address;
    }
  }
  return out;
}
