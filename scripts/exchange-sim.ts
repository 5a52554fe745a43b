/**
 * npm run exchange:sim: the local FixedFloat-compatible exchange (devtools/exchange-sim).
 * Env: EXCHANGE_SIM_PORT (default 8787), EXCHANGE_SIM_API_KEY / EXCHANGE_SIM_API_SECRET,
 * EXCHANGE_SIM_RPC_URL + EXCHANGE_SIM_TOKEN_ADDRESS + EXCHANGE_SIM_WALLET_KEY (the local chain:
 * USDTBSC deposits detected on it, USDTBSC payouts sent from that wallet), EXCHANGE_SIM_RAILS (more
 * on-chain currencies, JSON: {"USDC": {"rpcUrl", "tokenAddress", "decimals", "walletKey"}, ...}),
 * EXCHANGE_SIM_ORDER_TTL_SECONDS.
 */
import type { Address, Hex } from 'viem';
import type { SimRailOptions } from '@/devtools/exchange-sim/rails';
import { SIM_DEFAULT_KEY, SIM_DEFAULT_SECRET, startExchangeSim } from '@/devtools/exchange-sim/server';

const e = process.env;
const REQ_CONFIRMATIONS = 3;
const chain =
  e.EXCHANGE_SIM_RPC_URL && e.EXCHANGE_SIM_TOKEN_ADDRESS && e.EXCHANGE_SIM_WALLET_KEY
    ? {
        rpcUrl: e.EXCHANGE_SIM_RPC_URL,
        tokenAddress: e.EXCHANGE_SIM_TOKEN_ADDRESS as Address,
        walletKey: e.EXCHANGE_SIM_WALLET_KEY as Hex,
        reqConfirmations: REQ_CONFIRMATIONS,
      }
    : undefined;

/** EXCHANGE_SIM_RAILS, checked enough that a typo stops the start with its name rather than a payout failing later. */
function parseRails(raw: string | undefined): Record<string, SimRailOptions> {
  if (!raw) return {};
  const parsed = JSON.parse(raw) as Record<string, Partial<SimRailOptions>>;
  const out: Record<string, SimRailOptions> = {};
  for (const [code, r] of Object.entries(parsed)) {
    if (!r.rpcUrl || !r.tokenAddress || !r.walletKey || !Number.isInteger(r.decimals)) {
      throw new Error(`EXCHANGE_SIM_RAILS.${code}: needs rpcUrl, tokenAddress, decimals and walletKey`);
    }
    out[code] = { rpcUrl: r.rpcUrl, tokenAddress: r.tokenAddress, decimals: r.decimals, walletKey: r.walletKey, reqConfirmations: REQ_CONFIRMATIONS };
  }
  return out;
}

const rails = parseRails(e.EXCHANGE_SIM_RAILS);
const sim = await startExchangeSim({
  port: Number(e.EXCHANGE_SIM_PORT ?? 8787),
  keys: { [e.EXCHANGE_SIM_API_KEY ?? SIM_DEFAULT_KEY]: e.EXCHANGE_SIM_API_SECRET ?? SIM_DEFAULT_SECRET },
  ttlMs: Number(e.EXCHANGE_SIM_ORDER_TTL_SECONDS ?? 1800) * 1000,
  lifecycle: { confirmMs: 3_000, exchangeMs: 3_000, withdrawMs: 3_000 },
  chain,
  rails,
});
const onChain = [...sim.rails.values()].map((r) => r.code);
console.log(
  `[exchange-sim] FixedFloat API v2 on ${sim.url}/api/v2 (${onChain.length > 0 ? `on-chain: ${onChain.join(', ')}` : 'no chain: deposits only through /control'})`,
);
const stop = () => void sim.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
