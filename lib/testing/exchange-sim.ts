import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { setExchangeOverride, type ExchangeConfig } from '@/lib/exchange/config';
import { clearCurrencyCache } from '@/lib/exchange/currencies';
import { clearQuoteCache } from '@/lib/exchange/quote-cache';
import { clearFiatRateCache } from '@/lib/fiat-rates/get-fiat-rate';
import { startExchangeSim, type SimOptions } from '@/lib/exchange-sim/server';
import type { AnvilChain } from './anvil';

/**
 * A simulator for one test file, on its own API key (so files never share a
 * weight budget), with fast lifecycle timers; test mode is pointed at it.
 * With a chain, the simulator's payout wallet is the chain's spare funded key.
 */
export async function startTestExchange(chain?: AnvilChain, opts: SimOptions & { config?: Partial<ExchangeConfig> } = {}) {
  const apiKey = `k_${randomBytes(6).toString('hex')}`;
  const apiSecret = randomBytes(24).toString('hex');
  if (chain) await chain.mint(privateKeyToAccount(chain.keys.other).address, '1000000');
  const sim = await startExchangeSim({
    keys: { [apiKey]: apiSecret },
    lifecycle: { confirmMs: 100, exchangeMs: 100, withdrawMs: 100 },
    tickMs: 50,
    log: () => {},
    ...(chain ? { chain: { rpcUrl: chain.rpcUrl, tokenAddress: chain.token, walletKey: chain.keys.other, reqConfirmations: 1 } } : {}),
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
