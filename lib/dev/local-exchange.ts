import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import type { ChainKey } from '@/lib/config/rails';
import { railExchangeCode } from '@/lib/exchange/rail-currencies';
import type { AnvilChain } from '@/lib/testing/anvil';

/** A local exchange `npm run dev` started: where, and the on-chain currencies it sees. */
export interface LocalExchange {
  mode: string;
  url: string;
  codes: string[];
}

/**
 * The local exchange (npm run exchange:sim) of a mode for `npm run dev` (scripts/dev.ts), unless EXCHANGE_URL is
 * set or the mode has no local BSC chain: it sees deposits in every token of the mode's local chains (USDTBSC
 * through EXCHANGE_SIM_*, the others through EXCHANGE_SIM_RAILS, under their exchange codes) and pays them out of
 * its own funded wallet (each chain's spare key). Planned (port, credentials) before the chains start; `start`,
 * once they have, funds the wallets and spawns it quiet (`spawnSim`), unless `stopping()`.
 */
export function planLocalExchange(opts: {
  mode: 'test' | 'live';
  port: number;
  hasLocalBsc: boolean;
  chains: () => { key: ChainKey; chain: AnvilChain }[];
  spawnSim: (name: string, env: Record<string, string>) => void;
  stopping: () => boolean;
}): { env: Record<string, string>; start: () => Promise<LocalExchange | undefined> } {
  const { mode } = opts;
  if (process.env.EXCHANGE_URL || !opts.hasLocalBsc) return { env: {}, start: async () => undefined };
  const url = `http://127.0.0.1:${opts.port}`;
  const [key, secret] = [`sim_${mode}_${randomBytes(4).toString('hex')}`, randomBytes(24).toString('hex')];
  const start = async () => {
    const chains = opts.chains();
    const chain = chains.find((c) => c.key === 'BSC')!.chain;
    const rails: Record<string, { rpcUrl: string; tokenAddress: string; decimals: number; walletKey: string }> = {};
    await Promise.all(
      chains.map(async ({ chain: c }) => {
        for (const t of c.tokens) await c.mint(privateKeyToAccount(c.keys.other).address, '100000000', t.address);
      }),
    );
    for (const { key: k, chain: c } of chains) {
      for (const t of c.tokens) {
        if (k === 'BSC' && t.asset === 'USDT') continue; // the EXCHANGE_SIM_* chain below
        rails[railExchangeCode({ chain: k, token: t.asset })] = {
          rpcUrl: c.rpcUrl,
          tokenAddress: t.address,
          decimals: t.decimals,
          walletKey: c.keys.other,
        };
      }
    }
    if (opts.stopping()) return undefined; // Ctrl-C while the chains started: nothing new
    opts.spawnSim(`exchange-sim-${mode}`, {
      EXCHANGE_SIM_PORT: String(opts.port),
      EXCHANGE_SIM_API_KEY: key,
      EXCHANGE_SIM_API_SECRET: secret,
      EXCHANGE_SIM_RPC_URL: chain.rpcUrl,
      EXCHANGE_SIM_TOKEN_ADDRESS: chain.token,
      EXCHANGE_SIM_WALLET_KEY: chain.keys.other,
      EXCHANGE_SIM_RAILS: JSON.stringify(rails),
      EXCHANGE_SIM_QUIET: '1',
    });
    return { mode, url, codes: ['USDTBSC', ...Object.keys(rails)] };
  };
  const p = mode === 'test' ? 'TEST_EXCHANGE' : 'EXCHANGE';
  return { env: { [`${p}_URL`]: url, [`${p}_API_KEY`]: key, [`${p}_API_SECRET`]: secret }, start };
}
