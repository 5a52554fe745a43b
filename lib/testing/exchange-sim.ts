import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { setExchangeOverride, type ExchangeConfig } from '@/lib/exchange/config';
import { clearCurrencyCache } from '@/lib/exchange/currencies';
import { clearQuoteCache } from '@/lib/exchange/quote-cache';
import { railExchangeCode } from '@/lib/exchange/rail-currencies';
import { clearFiatRateCache } from '@/lib/fiat-rates/get-fiat-rate';
import { startExchangeSim, type SimOptions } from '@/devtools/exchange-sim/server';
import type { SimRailOptions } from '@/devtools/exchange-sim/rails';
import type { AnvilChain } from './anvil';

/**
 * Every token of the given chains as a simulator rail under its exchange code
 * (USDTBSC, USDC, ...), paid out from the chain's spare funded key, which gets
 * each token minted.
 */
async function railsOf(chains: AnvilChain[]): Promise<Record<string, SimRailOptions>> {
  const rails: Record<string, SimRailOptions> = {};
  const wallet = (c: AnvilChain) => privateKeyToAccount(c.keys.other).address;
  for (const c of chains) {
    const chain = c.network('test').chain;
    for (const t of c.tokens) {
      await c.mint(wallet(c), '1000000', t.address);
      rails[railExchangeCode({ chain, token: t.asset })] = {
        rpcUrl: c.rpcUrl,
        tokenAddress: t.address,
        decimals: t.decimals,
        walletKey: c.keys.other,
        reqConfirmations: 1,
      };
    }
  }
  return rails;
}

/**
 * A simulator for one test file, on its own API key (so files never share a
 * weight budget), with fast lifecycle timers; test mode is pointed at it.
 * With chains, every token deployed on them is an on-chain rail of the
 * simulator (deposits seen, payouts sent on that chain).
 */
export async function startTestExchange(chains?: AnvilChain | AnvilChain[], opts: SimOptions & { config?: Partial<ExchangeConfig> } = {}) {
  const apiKey = `k_${randomBytes(6).toString('hex')}`;
  const apiSecret = randomBytes(24).toString('hex');
  const rails = chains ? await railsOf(Array.isArray(chains) ? chains : [chains]) : {};
  const sim = await startExchangeSim({
    keys: { [apiKey]: apiSecret },
    lifecycle: { confirmMs: 100, exchangeMs: 100, withdrawMs: 100 },
    tickMs: 50,
    log: () => {},
    rails,
    ...opts,
  });
  const config: ExchangeConfig = { url: sim.url, apiKey, apiSecret, weightLimit: 250, windowMs: 60_000, trackCeiling: 150, ...opts.config };
  setExchangeOverride('test', config);
  clearCurrencyCache();
  clearQuoteCache();
  clearFiatRateCache();
  return {
    sim,
    config,
    async stop() {
      setExchangeOverride('test', undefined);
      await sim.stop();
    },
  };
}
